import type { Command } from "commander";
import { type CommandContext, CommandError, valueOrExit } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

interface UserSettingOptions {
  value?: string;
  defaultValue?: string;
  delete?: boolean;
  updateOnly?: boolean;
  errorIfNotExists?: boolean;
  output: OutputFormat;
}

/**
 * `./occ user:setting <uid> [<app> [<key> [<value>]]]`, as ownCloud and Nextcloud have it: list a
 * user's preferences, read one, set one (positional value as Nextcloud, or `--value` as ownCloud),
 * or delete one. `core lang` is the user's language (i18n/negotiation.ts), `core timezone` their time zone.
 */
export function registerUserSettingCommand(program: Command, context: CommandContext): void {
  program
    .command("user:setting")
    .summary("read and write a user's preferences")
    .description(
      "List, read, set or delete a user's preferences. `core lang` (en, de, fr, es, it, nl) is the language of their pages and activities, `core timezone` (e.g. Europe/Berlin) their time zone.",
    )
    .argument("<uid>", "user name")
    .argument("[app]", "the preference's app, e.g. core")
    .argument("[key]", "the preference's name, e.g. lang")
    .argument("[value]", "the new value (same as --value)")
    .option("--value <value>", "set the preference to this value")
    .option("--default-value <value>", "print this when the preference is not set, instead of failing")
    .option("--update-only", "only change a preference that is already set")
    .option("--error-if-not-exists", "with --delete: fail when the preference is not set")
    .option("--delete", "delete the preference")
    .addOption(outputOption())
    .action(
      async (
        uid: string,
        app: string | undefined,
        key: string | undefined,
        positional: string | undefined,
        options: UserSettingOptions,
      ) => {
        const { preferences } = await context.open();
        const value = positional ?? options.value;
        if (app === undefined || key === undefined) {
          if (value !== undefined || options.delete) throw new CommandError("give the app and the key of the preference");
          printData(context, options.output, valueOrExit(await preferences.list(uid, app)));
          return;
        }
        if (options.delete) {
          const deleted = valueOrExit(await preferences.delete(uid, app, key));
          if (!deleted && options.errorIfNotExists) throw new CommandError(`The setting does not exist for user "${uid}".`);
          context.print(
            deleted ? `The setting ${app} ${key} of "${uid}" was deleted` : `The setting ${app} ${key} of "${uid}" was not set`,
          );
          return;
        }
        const current = valueOrExit(await preferences.get(uid, app, key));
        if (value !== undefined) {
          if (options.updateOnly && current === undefined)
            throw new CommandError(`The setting does not exist for user "${uid}".`);
          const stored = valueOrExit(await preferences.set(uid, app, key, value));
          context.print(`The setting ${app} ${key} of "${uid}" is now "${stored}"`);
          return;
        }
        const shown = current ?? options.defaultValue;
        if (shown === undefined) throw new CommandError(`The setting does not exist for user "${uid}".`);
        printData(context, options.output, shown, () => context.print(shown));
      },
    );
}
