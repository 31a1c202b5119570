import type { Command } from "commander";
import { replacePassword } from "../../accounts/password-change.js";
import { validGid } from "../../groups/domain/group-id.js";
import { groupRefusal } from "../../groups/errors.js";
import { type CommandContext, CommandError, valueOrExit } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";
import { collect } from "./group.js";

/** ownCloud's convention: `--password-from-env` reads the password from OC_PASS. */
function passwordFromEnvironment(): string {
  const password = process.env.OC_PASS;
  if (!password) throw new CommandError("--password-from-env given, but OC_PASS is empty!");
  return password;
}

/** ownCloud's user:modify keys. */
const MODIFIABLE_KEYS = ["displayname", "email"] as const;

export function registerUserCommands(program: Command, context: CommandContext): void {
  program
    .command("user:add")
    .summary("add a user")
    .description("Add a user; the password comes from OC_PASS with --password-from-env, as in ownCloud.")
    .argument("<uid>", "user name (letters, digits, spaces and _.@-')")
    .option("--display-name <name>", "full name shown in the interface")
    .option("--email <email>", "email address")
    .option("--password-from-env", "read the password from the environment variable OC_PASS")
    .option("--admin", "make the user an administrator (a member of the group admin)")
    .option("-g, --group <group>", "add the user to this group, created when missing (repeatable)", collect, [])
    .option(
      "--reuse-deleted-name",
      "give the name of a deleted user to this new account: applications the deleted user signed in to will take it for them",
    )
    .action(
      async (
        uid: string,
        options: {
          displayName?: string;
          email?: string;
          passwordFromEnv?: boolean;
          admin?: boolean;
          reuseDeletedName?: boolean;
          group: string[];
        },
      ) => {
        const password = options.passwordFromEnv ? passwordFromEnvironment() : undefined;
        // Every group name is checked before the user is written: a refused command leaves nothing behind.
        const invalid = options.group.find((gid) => !validGid(gid));
        if (invalid !== undefined) throw new CommandError(groupRefusal("invalid_gid", "invalidGid", { gid: invalid }).message);
        const { users, groups } = await context.open({ create: true });
        const user = valueOrExit(
          await users.create({
            uid,
            password,
            displayName: options.displayName,
            email: options.email,
            isAdmin: options.admin,
            reuseDeletedUid: options.reuseDeletedName,
          }),
        );
        context.print(`The user "${user.uid}" was created successfully`);
        // As ownCloud's user:add (owncloud/core core/Command/User/Add.php): a missing group is created.
        for (const gid of options.group) {
          if (!(await groups.find(gid))) {
            valueOrExit(await groups.create(gid));
            context.print(`Created group "${gid}"`);
          }
          valueOrExit(await groups.addMember(gid, user.uid));
          context.print(`User "${user.uid}" added to group "${gid}"`);
        }
        if (password === undefined) {
          context.print(
            "No password was set: the user can log in only after `./occ user:resetpassword` or with an app password.",
          );
        }
      },
    );

  program
    .command("user:delete")
    .summary("delete a user")
    .description(
      "Delete a user and everything that belongs to them (sessions, app passwords, grants, activities). The name stays reserved: user:add gives it to a new account only with --reuse-deleted-name.",
    )
    .argument("<uid>")
    .action(async (uid: string) => {
      const { users } = await context.open();
      valueOrExit(await users.delete(uid));
      context.print(`The user "${uid}" was deleted`);
    });

  for (const [name, enabled] of [
    ["user:disable", false],
    ["user:enable", true],
  ] as const) {
    program
      .command(name)
      .summary(enabled ? "enable a user" : "disable a user")
      .description(enabled ? "Enable a user: they can log in again." : "Disable a user: ends their sessions and refuses logins.")
      .argument("<uid>")
      .action(async (uid: string) => {
        const { users } = await context.open();
        valueOrExit(await users.setEnabled(uid, enabled));
        context.print(`The user "${uid}" is ${enabled ? "enabled" : "disabled"}`);
      });
  }

  program
    .command("user:resetpassword")
    .summary("set a user's password")
    .description("Set a user's password, read from OC_PASS with --password-from-env.")
    .argument("<uid>")
    .option("--password-from-env", "read the password from the environment variable OC_PASS")
    .action(async (uid: string, options: { passwordFromEnv?: boolean }) => {
      if (!options.passwordFromEnv) throw new CommandError("give the new password with --password-from-env (OC_PASS)");
      const password = passwordFromEnvironment();
      const { users, sessions } = await context.open();
      valueOrExit(await replacePassword(users, sessions, uid, password));
      context.print(`Successfully reset password for ${uid}`);
    });

  program
    .command("user:modify")
    .summary("change a user's full name or email address")
    .description(
      "Change a user's display name (key displayname) or email address (key email), as ownCloud's user:modify. No other user may have the address. It is unverified unless --verified says you made sure the user controls it: only then do ID tokens and UserInfo say email_verified true.",
    )
    .argument("<uid>")
    .argument("<key>", `the detail to change: ${MODIFIABLE_KEYS.join(", ")}`)
    .argument("<value>", "its new value")
    .option("--verified", "with email: you made sure the user controls this address (else it is unverified)")
    .action(async (uid: string, key: string, value: string, options: { verified?: boolean }) => {
      if (!(MODIFIABLE_KEYS as readonly string[]).includes(key)) {
        throw new CommandError(`Supported keys are ${MODIFIABLE_KEYS.join(", ")}`);
      }
      if (value === "") throw new CommandError("The value cannot be empty");
      if (options.verified && key !== "email") throw new CommandError("--verified goes with the key email only");
      const { users } = await context.open();
      if (key === "displayname") {
        valueOrExit(await users.updateProfile(uid, { displayName: value }));
        context.print(`The displayname of ${uid} updated to ${value}`);
        return;
      }
      const verified = options.verified === true;
      valueOrExit(await users.updateProfile(uid, { email: value, emailVerified: verified }));
      context.print(`The email address of ${uid} updated to ${value}, ${verified ? "marked verified" : "not verified"}`);
    });

  program
    .command("user:add-app-password")
    .summary("create an app password for a user")
    .description("Create an app password for a user and print it (plain: the password alone, on stdout).")
    .argument("<uid>")
    .option("--name <name>", "name of the device or program", "occ")
    .addOption(outputOption())
    .action(async (uid: string, options: { name: string; output: OutputFormat }) => {
      const { users, appPasswords } = await context.open();
      valueOrExit(await users.require(uid));
      const { secret } = valueOrExit(await appPasswords.create(uid, options.name));
      printData(context, options.output, { uid, name: options.name, password: secret }, () => context.print(secret));
    });
}
