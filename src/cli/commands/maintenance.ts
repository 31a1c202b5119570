import { type Command, Option } from "commander";
import type { CommandContext } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

export function registerMaintenanceCommands(program: Command, context: CommandContext): void {
  program
    .command("migrate")
    .summary("apply pending database migrations")
    .description(
      "Apply the pending database migrations (creating the instance on an empty data directory or database); " +
        "each migration is announced on stderr as it runs.",
    )
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const { applied } = await context.openStorage({ create: true });
      printData(context, options.output, { applied }, () =>
        context.print(
          applied.length === 0 ? "Nothing to migrate: the database is up to date." : `Applied: ${applied.join(", ")}`,
        ),
      );
    });

  program
    .command("maintenance:mode")
    .summary("turn maintenance mode on or off, or show it")
    .description(
      "Turn maintenance mode on or off (every endpoint but status.php answers 503); without an option, " +
        "show whether it is on. Same as the `maintenance` host setting.",
    )
    .addOption(new Option("--on", "turn maintenance mode on").conflicts("off"))
    .addOption(new Option("--off", "turn maintenance mode off"))
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat; on?: boolean; off?: boolean }) => {
      const change = options.on ? true : options.off ? false : undefined;
      const { settings } = await context.open({ create: change !== undefined });
      if (change !== undefined) settings.set("maintenance", change);
      const enabled = settings.get("maintenance");
      // ownCloud's sentences: "Maintenance mode enabled" after --on, "…is currently enabled" when asked.
      const sentence =
        change === undefined
          ? `Maintenance mode is currently ${enabled ? "enabled" : "disabled"}`
          : `Maintenance mode ${enabled ? "enabled" : "disabled"}`;
      printData(context, options.output, { maintenance: enabled }, () => context.print(sentence));
    });

  program
    .command("serve")
    .summary("run the server")
    .description("Run the server (HOST, PORT, KEYSTREAM_DATA_DIR, KEYSTREAM_DATABASE_URL), as npm start does.")
    .action(async () => {
      // Loaded on demand: the HTTP stack is the heaviest part of start-up, and no other command needs it.
      const { main } = await import("../../main.js");
      await main();
      // Keep running: main() installed the signal handlers that end the process.
      await new Promise(() => {});
    });
}
