import type { Command } from "commander";
import type { CommandContext } from "../context.js";

export function registerMaintenanceCommands(program: Command, context: CommandContext): void {
  program
    .command("migrate")
    .description("apply pending database migrations")
    .action(async () => {
      const { environment } = context;
      const [{ openStorage }, { migrateToLatest }] = await Promise.all([
        import("../../storage/connect.js"),
        import("../../storage/migrate.js"),
      ]);
      const storage = openStorage({
        databaseUrl: environment.databaseUrl,
        dataDir: environment.dataDir,
        timeouts: { connectMs: environment.database?.connectTimeoutMs, statementMs: environment.database?.statementTimeoutMs },
      });
      try {
        const { applied } = await migrateToLatest(storage);
        context.print(
          applied.length === 0 ? "Nothing to migrate: the database is up to date." : `Applied: ${applied.join(", ")}`,
        );
      } finally {
        await storage.close();
      }
    });

  program
    .command("serve")
    .description("run the server (HOST, PORT, KEYSTREAM_DATA_DIR, KEYSTREAM_DATABASE_URL)")
    .action(async () => {
      // Loaded on demand: the HTTP stack is the heaviest part of start-up, and no other command needs it.
      const { main } = await import("../../main.js");
      await main();
      // Keep running: main() installed the signal handlers that end the process.
      await new Promise(() => {});
    });
}
