import { type Command, Help } from "commander";
import { keystreamRelease, keystreamVersion, PRODUCT } from "../product.js";
import type { CommandContext } from "./context.js";
import { type OutputFormat, outputOption, printData } from "./output.js";

/** Help and `list` fit an 80-column terminal (one long synopsis must not pad every line past it). */
export const HELP_WIDTH = 80;
const USAGE_TITLE = "Usage: ";

/**
 * The layout every command's help shares: 80 columns, a command's name alone in the command list
 * (its arguments are in its own help), long usage lines wrapped under their title. Set on the
 * program before the commands are added: commander copies it to each.
 */
export function configureHelpLayout(program: Command): void {
  program.configureHelp({
    helpWidth: HELP_WIDTH,
    sortSubcommands: true,
    subcommandTerm: (command) => command.name(),
    commandUsage(this: Help, command: Command): string {
      const usage = Help.prototype.commandUsage.call(this, command);
      return this.boxWrap(usage, HELP_WIDTH - USAGE_TITLE.length).replace(/\n/g, `\n${" ".repeat(USAGE_TITLE.length)}`);
    },
  });
}

/**
 * The usage hint after an argument error names the help that answers it: the command's own for an
 * option or argument error inside it, the list for an unknown command.
 */
export function pointUsageHintsToHelp(program: Command): void {
  program.showHelpAfterError("(run ./occ list for the list of commands)");
  for (const command of program.commands) {
    command.showHelpAfterError(`(run ./occ ${command.name()} --help for its usage)`);
  }
}

/**
 * The arguments as commander should see them: a help request for a command that does not exist
 * (`./occ frob --help`, `./occ -h frob`, `./occ help frob`) becomes that command alone, so that it
 * is answered as an unknown command (exit 2, its name, a did-you-mean) and not with the global
 * help and exit 0. The program's own options take no value, so the first word not starting with
 * `-` names the command.
 */
export function helpOfUnknownCommandAsUnknown(program: Command, argv: string[]): string[] {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const named = words[0] === "help" ? words[1] : words[0];
  if (named === undefined || named === "help") return argv;
  const known = program.commands.some((command) => command.name() === named || command.aliases().includes(named));
  return known ? argv : [named];
}

interface Listed {
  name: string;
  description: string;
}

/** Every command the program answers, `help` included, in name order (as `list` shows them). */
export function listedCommands(program: Command): Listed[] {
  const helper = program.createHelp();
  return helper
    .visibleCommands(program)
    .map((command) => ({ name: command.name(), description: helper.subcommandDescription(command) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** ownCloud's `occ list`: the commands under their namespace (the part before the colon). */
export function registerListCommand(program: Command, context: CommandContext): void {
  program
    .command("list")
    .summary("list the commands, by namespace")
    .description("List the commands, grouped by namespace as ownCloud's occ does (also `./occ` alone).")
    .addOption(outputOption())
    .action((options: { output: OutputFormat }) => {
      const commands = listedCommands(program);
      // Commands without a namespace first, as in ownCloud's list.
      const namespaces = new Map<string, Listed[]>([["", []]]);
      for (const command of commands) {
        const namespace = command.name.includes(":") ? (command.name.split(":")[0] as string) : "";
        namespaces.set(namespace, [...(namespaces.get(namespace) ?? []), command]);
      }
      const data = {
        application: { name: PRODUCT.name, version: keystreamVersion() },
        commands: commands.map((c) => ({ name: c.name, description: c.description })),
        namespaces: [...namespaces].map(([id, listed]) => ({ id: id || "_global", commands: listed.map((c) => c.name) })),
      };
      printData(context, options.output, data, () => {
        const helper = program.createHelp();
        const width = Math.max(...commands.map((c) => c.name.length));
        context.print(`${PRODUCT.name} ${keystreamRelease()}`);
        context.print();
        context.print("Usage:");
        context.print("  ./occ <command> [options] [arguments]");
        context.print("  ./occ <command> --help");
        context.print();
        context.print("Options:");
        context.print("  -h, --help         display help for the command");
        context.print("  -V, --version      print the Keystream version (and commit)");
        context.print("  --output=FORMAT    plain, json or json_pretty (commands that print data)");
        context.print();
        context.print("Available commands:");
        for (const [namespace, listed] of namespaces) {
          if (namespace) context.print(` ${namespace}`);
          for (const command of listed) {
            context.print(helper.formatItem(command.name, width, command.description, helper));
          }
        }
      });
    });
}
