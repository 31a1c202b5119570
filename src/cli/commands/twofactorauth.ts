import { type Command, CommanderError, Option } from "commander";
import { isProviderId, PROVIDER_IDS } from "../../second-factor/providers.js";
import { type CommandContext, CommandError } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

/**
 * Nextcloud's two-factor commands, with their names and output (nextcloud/server
 * core/Command/TwoFactorAuth/State.php, Disable.php, Enforce.php): which providers a user has,
 * switching one off for a user who lost it, and enforcement for every user.
 */
export function registerTwoFactorAuthCommands(program: Command, context: CommandContext): void {
  program
    .command("twofactorauth:state")
    .summary("show a user's two-factor providers")
    .description("Get the two-factor authentication (2FA) state of a user: which providers are enabled and which are not.")
    .argument("<uid>")
    .addOption(outputOption())
    .action(async (uid: string, options: { output: OutputFormat }) => {
      const { users, secondFactors } = await context.open();
      if (!(await users.find(uid))) throw new CommandError("Invalid UID");
      const states = await secondFactors.states(uid);
      const on = await secondFactors.hasSecondFactor(uid);
      const data = { enabled: on, providers: Object.fromEntries(states.map((state) => [state.id, state.enabled])) };
      printData(context, options.output, data, () => {
        context.print(`Two-factor authentication is ${on ? "enabled" : "not enabled"} for user ${uid}`);
        context.print("");
        for (const [title, enabled] of [
          ["Enabled providers", true],
          ["Disabled providers", false],
        ] as const) {
          const listed = states.filter((state) => state.enabled === enabled);
          if (listed.length === 0) continue;
          context.print(`${title}:`);
          for (const state of listed) context.print(`- ${state.id}`);
        }
      });
    });

  program
    .command("twofactorauth:disable")
    .summary("switch off one two-factor provider of a user")
    .description(
      `Disable a two-factor provider for a user (${PROVIDER_IDS.join(", ")}): its secrets are deleted, and the user ` +
        "sets it up again in personal settings. For a user who lost their authenticator.",
    )
    .argument("<uid>")
    .argument("<provider_id>", PROVIDER_IDS.join(", "))
    .action(async (uid: string, providerId: string) => {
      const { users, secondFactors, log } = await context.open();
      if (!(await users.find(uid))) throw new CommandError("Invalid UID");
      const disabled = isProviderId(providerId) ? await secondFactors.disable(uid, providerId) : undefined;
      if (disabled === undefined) {
        // Nextcloud's exit code 2 for a provider that cannot be disabled.
        context.err("The provider does not support this operation.\n");
        throw new CommanderError(2, "twofactorauth.unsupported", "The provider does not support this operation.");
      }
      if (disabled) {
        log.info({ event: "second_factor_disabled", uid, provider: providerId, by: "occ" }, "second factor disabled by occ");
      }
      context.print(`Two-factor provider ${providerId} disabled for user ${uid}.`);
    });

  program
    .command("twofactorauth:enforce")
    .summary("enforce two-factor authentication, or stop")
    .description(
      "Enable or disable enforced two-factor authentication (without an option: show the state). Enforced, a user " +
        "without a second factor sets one up right after the password, and HTTP Basic takes app passwords only.",
    )
    .addOption(new Option("--on", "enforce two-factor authentication").conflicts("off"))
    .addOption(new Option("--off", "don't enforce two-factor authentication"))
    .action(async (options: { on?: boolean; off?: boolean }) => {
      const { secondFactors, log } = await context.open({ create: options.on === true || options.off === true });
      if (options.on || options.off) {
        secondFactors.setEnforced(options.on === true);
        log.info({ event: "second_factor_enforcement", enforced: options.on === true, by: "occ" }, "2FA enforcement changed");
      }
      context.print(
        secondFactors.enforced()
          ? "Two-factor authentication is enforced for all users"
          : "Two-factor authentication is not enforced",
      );
    });
}
