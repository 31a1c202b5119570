import type { Command } from "commander";
import { isHostSettingName, parseHostSetting } from "../../config/host-settings.js";
import { type CommandContext, CommandError } from "../context.js";

export function registerConfigCommands(program: Command, context: CommandContext): void {
  program
    .command("config:system:set")
    .description("set a host setting (validated before anything is written)")
    .argument("<name>", "setting name, e.g. overwrite.cli.url or token_auth_enforced")
    .requiredOption("--value <value>", "the new value")
    .option("--type <type>", "accepted for ownCloud compatibility; the setting's declared type decides")
    .action(async (name: string, options: { value: string }) => {
      let parsed: ReturnType<typeof parseHostSetting>;
      try {
        parsed = parseHostSetting(name, options.value);
      } catch (error) {
        throw new CommandError((error as Error).message);
      }
      const { settings } = await context.open();
      settings.set(parsed.name, parsed.value);
      context.print(`System config value ${name} set to ${String(parsed.value)}`);
    });

  program
    .command("config:system:get")
    .description("print a host setting (exit 1 when it is not set)")
    .argument("<name>")
    .action(async (name: string) => {
      if (!isHostSettingName(name)) throw new CommandError(`unknown setting "${name}"`);
      const { settings } = await context.open();
      const value = settings.getStored(name);
      if (value === undefined) throw new CommandError(`${name} is not set (default: ${String(settings.get(name))})`);
      context.print(String(value));
    });

  program
    .command("config:system:delete")
    .description("remove a host setting (back to its default)")
    .argument("<name>")
    .action(async (name: string) => {
      if (!isHostSettingName(name)) throw new CommandError(`unknown setting "${name}"`);
      const { settings } = await context.open();
      if (!settings.delete(name)) throw new CommandError(`${name} is not set`);
      context.print(`System config value ${name} deleted`);
    });
}
