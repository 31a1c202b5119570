import type { Command } from "commander";
import type { UserListing } from "../../accounts/ports.js";
import { type CommandContext, CommandError, valueOrExit } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

/**
 * ownCloud's `user:list` attributes (owncloud/core core/Command/User/ListUsers.php ATTRIBUTES)
 * that a Keystream account has, in ownCloud's order; `lastLogin` and `creationTime` are Unix
 * seconds, `lastLogin` 0 for never, as ownCloud prints them.
 */
const ATTRIBUTES = {
  uid: (user: UserListing) => user.uid,
  displayName: (user: UserListing) => user.displayName,
  email: (user: UserListing) => user.email,
  enabled: (user: UserListing) => user.enabled,
  lastLogin: (user: UserListing) => user.lastLoginAt ?? 0,
  creationTime: (user: UserListing) => user.createdAt,
} as const;
type Attribute = keyof typeof ATTRIBUTES;

/** ownCloud attributes of its file storage and user backends, which a Keystream account has not. */
const NOT_APPLICABLE = new Set(["quota", "home", "backend", "cloudid", "searchterms"]);

/** ownCloud matches attribute names without regard to case (`mb_strtolower`). */
function attributeOf(name: string): Attribute {
  const found = (Object.keys(ATTRIBUTES) as Attribute[]).find((a) => a.toLowerCase() === name.toLowerCase());
  if (found) return found;
  if (NOT_APPLICABLE.has(name.toLowerCase())) {
    throw new CommandError(`The attribute ${name} does not apply to Keystream accounts (no file storage or user backends)`);
  }
  throw new CommandError(`Unknown attribute ${name}; attributes: ${Object.keys(ATTRIBUTES).join(", ")}`);
}

/** `-a` is repeatable (`-a email -a enabled`), and takes a comma-separated list too. */
function collectAttributes(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}

/** PHP's `DateTimeInterface::ATOM` in UTC (`2026-11-27T13:52:00+00:00`), as Nextcloud's user:info prints `last_seen`. */
function atom(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

export function registerUserInfoCommands(program: Command, context: CommandContext): void {
  program
    .command("user:list")
    .summary("list users and their attributes")
    .description(
      "List users and their attributes, as ownCloud's user:list: the display name unless -a names others " +
        `(${Object.keys(ATTRIBUTES).join(", ")}), every one with -s. With one attribute in plain output each line is ` +
        '"uid: value"; otherwise each user has its attributes by name (JSON: {"alice":{"displayName":"Alice","email":…}}).',
    )
    .argument("[search-pattern]", "only users whose user name contains this (any case)")
    .option("-a, --attributes <attribute>", "an attribute to include (repeatable, or comma-separated)", collectAttributes, [])
    .option("-s, --show-all-attributes", "include every attribute")
    .addOption(outputOption())
    .action(
      async (
        pattern: string | undefined,
        options: { attributes: string[]; showAllAttributes?: boolean; output: OutputFormat },
      ) => {
        const attributes = options.showAllAttributes
          ? (Object.keys(ATTRIBUTES) as Attribute[])
          : [...new Set((options.attributes.length === 0 ? ["displayName"] : options.attributes).map(attributeOf))];
        const useKey = attributes.length > 1 || options.output !== "plain";
        const { users } = await context.open();
        const needle = pattern?.toLowerCase() ?? "";
        const rows: Record<string, string | number | boolean | null | Record<string, string | number | boolean | null>> = {};
        for (let offset = 0; ; offset += 500) {
          const page = await users.search({ text: needle, limit: 500, offset });
          for (const user of page.users) {
            if (!user.uid.toLowerCase().includes(needle)) continue;
            const values = Object.fromEntries(attributes.map((a) => [a, ATTRIBUTES[a](user)]));
            rows[user.uid] = useKey ? values : (values[attributes[0] as Attribute] ?? null);
          }
          if (page.users.length < 500) break;
        }
        printData(context, options.output, rows);
      },
    );

  program
    .command("user:info")
    .summary("show a user's details")
    .description(
      "Show a user's details, as Nextcloud's user:info: user_id, display_name, email, enabled, groups, last_seen " +
        "(ISO 8601, or never), and Keystream's email_verified, created and second_factors.",
    )
    .argument("<uid>")
    .addOption(outputOption())
    .action(async (uid: string, options: { output: OutputFormat }) => {
      const { users, groups, secondFactors } = await context.open();
      const user = valueOrExit(await users.requireListing(uid));
      const factors = await secondFactors.enabledByUser([uid]);
      printData(context, options.output, {
        user_id: user.uid,
        display_name: user.displayName,
        email: user.email ?? "",
        email_verified: user.emailVerified,
        enabled: user.enabled,
        groups: await groups.groupsOf(uid),
        created: atom(user.createdAt),
        last_seen: user.lastLoginAt === null ? "never" : atom(user.lastLoginAt),
        second_factors: factors.get(uid) ?? [],
      });
    });
}
