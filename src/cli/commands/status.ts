import type { Command } from "commander";
import { HostSettings } from "../../config/host-settings.js";
import { keystreamCommit, keystreamVersion, PRODUCT } from "../../product.js";
import { type CommandContext, DatabaseUnreachableError } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

type StatusValue = string | number | boolean | null | string[] | Record<string, string>;

/**
 * ownCloud's `occ status`, with what a Keystream operator asks first: which release, which
 * instance (data directory, database without credentials), how many users, and whether the
 * database waits for migrations (status looks without applying them). When the database does not
 * answer, status still shows what it knows without it (release, configuration file, data
 * directory, database location, the host settings of config.json) and exits 1 saying so.
 */
export function registerStatusCommand(program: Command, context: CommandContext): void {
  program
    .command("status")
    .summary("show the version, the instance and its database")
    .description(
      "Show the Keystream version, the configuration file read, the data directory, the database (kind and location, never a password), " +
        "the number of users, maintenance mode and the migrations not applied yet. When the database does not answer, " +
        "show the rest and exit 1.",
    )
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const { configFile, dataDir } = context.environment;
      const release = {
        productname: PRODUCT.name,
        version: keystreamVersion(),
        commit: keystreamCommit() ?? null,
        // What status.php answers, for ownCloud and Nextcloud clients.
        compatible_with: `ownCloud ${PRODUCT.versionString}`,
        // Which configuration file this occ read: the server finds the same one (docs/deployment.md).
        config_file: configFile?.read ? configFile.path : null,
        config_file_looked_for: configFile?.path ?? null,
        data_directory: dataDir,
        // Where each process setting came from: "default", "file", or "environment VARIABLE".
        ...(context.environment.sources ? { setting_sources: context.environment.sources } : {}),
      };
      let services: Awaited<ReturnType<CommandContext["open"]>>;
      try {
        services = await context.open({ migrate: false });
      } catch (error) {
        if (!(error instanceof DatabaseUnreachableError)) throw error;
        // config.json needs no database: maintenance and its problems are still known.
        const settings = new HostSettings(dataDir);
        const problem = settings.problem();
        printStatus(context, options.output, {
          installed: null,
          ...release,
          database: error.dialect,
          database_location: error.location,
          database_reachable: false,
          maintenance: problem === undefined ? settings.get("maintenance") : null,
          host_settings_problem: problem ?? null,
        });
        throw error;
      }
      const { pendingMigrations } = await import("../../storage/lifecycle/migrate.js");
      const { storage } = services;
      printStatus(context, options.output, {
        installed: true,
        ...release,
        database: storage.dialect,
        database_location: storage.describe.replace(/^sqlite:/, ""),
        database_reachable: true,
        users: await services.users.count(),
        maintenance: services.settings.get("maintenance"),
        host_settings_problem: services.settings.problem() ?? null,
        pending_migrations: await pendingMigrations(storage),
      });
    });
}

/**
 * JSON as it is (null: not set, or not known); plain says "none", or "unknown" for whether it is
 * installed when the database did not answer, instead of a bare key that reads as broken.
 */
function printStatus(context: CommandContext, format: OutputFormat, data: Record<string, StatusValue>): void {
  const plain = Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      value === null || (Array.isArray(value) && value.length === 0) ? (key === "installed" ? "unknown" : "none") : value,
    ]),
  );
  printData(context, format, format === "plain" ? plain : data);
}
