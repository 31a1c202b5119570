import type { Command } from "commander";
import { keystreamVersion, PRODUCT } from "../../product.js";
import type { CommandContext } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

/**
 * ownCloud's `occ status`, with what a Keystream operator asks first: which release, which
 * instance (data directory, database without credentials), how many users, and whether the
 * database waits for migrations (status looks without applying them).
 */
export function registerStatusCommand(program: Command, context: CommandContext): void {
  program
    .command("status")
    .summary("show the version, the instance and its database")
    .description(
      "Show the Keystream version, the configuration file read, the data directory, the database (kind and location, never a password), " +
        "the number of users, maintenance mode and the migrations not applied yet.",
    )
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const services = await context.open({ migrate: false });
      const { pendingMigrations } = await import("../../storage/migrate.js");
      const { storage } = services;
      const { configFile } = context.environment;
      const data = {
        installed: true,
        productname: PRODUCT.name,
        version: keystreamVersion(),
        // What status.php answers, for ownCloud and Nextcloud clients.
        compatible_with: `ownCloud ${PRODUCT.versionString}`,
        // Which configuration file this occ read: the server finds the same one (docs/deployment.md).
        config_file: configFile?.read ? configFile.path : null,
        config_file_looked_for: configFile?.path ?? null,
        data_directory: services.dataDir,
        database: storage.dialect,
        database_location: storage.describe.replace(/^sqlite:/, ""),
        users: (await services.users.list()).length,
        maintenance: services.settings.get("maintenance"),
        host_settings_problem: services.settings.problem() ?? null,
        pending_migrations: await pendingMigrations(storage),
      };
      printData(context, options.output, data);
    });
}
