import { Argument, type Command } from "commander";
import { checkHostSetting } from "../../config/host-setting-check.js";
import { type HostSettingName, hostSettingDefinitions, isHostSettingName } from "../../config/host-settings.js";
import { type CommandContext, CommandError } from "../context.js";
import { encodeJson, type OutputFormat, outputOption, printData } from "../output.js";

function requireSettingName(name: string): HostSettingName {
  if (isHostSettingName(name)) return name;
  throw new CommandError(`unknown setting "${name}"; known settings: ${Object.keys(hostSettingDefinitions).join(", ")}`);
}

export function registerConfigCommands(program: Command, context: CommandContext): void {
  program
    .command("config:system:set")
    .summary("set a host setting")
    .description("Set a host setting in config.json; the value is validated before anything is written.")
    .argument("<name>", "setting name, e.g. overwrite.cli.url (./occ config:list shows them)")
    .requiredOption("--value <value>", "the new value")
    .option("--type <type>", "accepted for ownCloud compatibility; the setting's own type decides")
    .action(async (name: string, options: { value: string }) => {
      const checked = checkHostSetting(name, options.value);
      if (!checked.ok) throw new CommandError(checked.message);
      const parsed = checked.value;
      const { settings } = await context.open({ create: true });
      settings.set(parsed.name, parsed.value);
      context.print(`System config value ${name} set to ${String(parsed.value)}`);
    });

  program
    .command("config:system:get")
    .summary("print a host setting (exit 1 when not set)")
    .description(
      "Print the value stored for a host setting. As in ownCloud, a setting that is not set exits 1 " +
        "unless --default-value gives what to print instead; ./occ config:list shows effective values.",
    )
    .argument("<name>", "setting name")
    .option("--default-value <value>", "print this (exit 0) when the setting is not set")
    .addOption(outputOption())
    .action(async (name: string, options: { output: OutputFormat; defaultValue?: string }) => {
      const setting = requireSettingName(name);
      const { settings } = await context.open();
      const value = settings.getStored(setting) ?? options.defaultValue;
      if (value === undefined) {
        throw new CommandError(
          `${name} is not set (its default, ${encodeJson(hostSettingDefinitions[setting].defaultValue, "json")}, applies)`,
        );
      }
      printData(context, options.output, value as string | number | boolean, () => context.print(String(value)));
    });

  program
    .command("config:system:delete")
    .summary("remove a host setting (back to its default)")
    .description("Remove a host setting from config.json, so that its default applies again.")
    .argument("<name>", "setting name")
    .action(async (name: string) => {
      const setting = requireSettingName(name);
      const { settings } = await context.open();
      if (!settings.delete(setting)) throw new CommandError(`${name} is not set`);
      context.print(`System config value ${name} deleted`);
    });

  program
    .command("config:list")
    .summary("list the effective host settings")
    .description(
      "List every host setting with its effective value; (default) marks those not set in config.json. " +
        "As ownCloud's `config:list system`.",
    )
    .addArgument(new Argument("[app]", "which configuration: system").choices(["system"]).default("system"))
    .addOption(outputOption())
    .action(async (_app: string, options: { output: OutputFormat }) => {
      const { settings } = await context.open();
      const names = Object.keys(hostSettingDefinitions) as HostSettingName[];
      const system = Object.fromEntries(names.map((name) => [name, settings.get(name)]));
      const defaults = names.filter((name) => settings.getStored(name) === undefined);
      printData(context, options.output, { system, defaults }, () => {
        for (const name of names) {
          const marker = defaults.includes(name) ? " (default)" : "";
          context.print(`  - ${name}: ${JSON.stringify(system[name])}${marker}`);
        }
      });
    });
}
