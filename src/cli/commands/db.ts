import fs from "node:fs";
import path from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type DatabaseUrlUpdate, prepareDatabaseUrlUpdate } from "../../config/database-url-update.js";
import { defaultConfigFile, processSettingDefinitions } from "../../config/environment.js";
import { type CommandContext, CommandError, noInstance, openInstance } from "../context.js";

/** The one target type: ownCloud's name for PostgreSQL (`pgsql`; it also has mysql and oci). */
const TARGET_TYPE = "pgsql";
/** ownCloud's default `--chunk-size`. */
const DEFAULT_CHUNK_SIZE = 1000;

interface ConvertOptions {
  port?: number;
  password?: string;
  clearSchema?: boolean;
  allApps?: boolean;
  chunkSize: number;
}

function positiveInteger(maximum: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > maximum) {
      throw new InvalidArgumentError(`an integer from 1 to ${maximum} is expected`);
    }
    return Number(text);
  };
}

/**
 * `db:*`: ownCloud's `db:convert-type` (owncloud/core `core/Command/Db/ConvertType.php`), same
 * arguments and options, from the SQLite file of the data directory into PostgreSQL.
 */
export function registerDbCommands(program: Command, context: CommandContext): void {
  program
    .command("db:convert-type")
    .summary("copy the SQLite instance into an empty PostgreSQL database and switch to it")
    .description(
      "Copy every table of the data directory's SQLite database into an empty PostgreSQL database (migrated " +
        "first, copied in one transaction, row counts verified), then set database_url in the configuration " +
        "file; restart Keystream afterwards. On any failure the target is left as it was and the configuration " +
        "unchanged. The password: --password, else the PGPASSWORD variable. Stop the server first.",
    )
    .argument("<type>", `the target database type: ${TARGET_TYPE} (PostgreSQL)`)
    .argument("<username>", "the database user")
    .argument("<hostname>", "the database server (host, or host:port)")
    .argument("<database>", "the database name")
    .addOption(new Option("--port <port>", "the database server's port").argParser(positiveInteger(65_535)))
    .addOption(new Option("--password <password>", "the database password (else PGPASSWORD)"))
    .addOption(new Option("--clear-schema", "drop every table, view and sequence of the target's schema first"))
    .addOption(new Option("--all-apps", "accepted for ownCloud's sake: every table is always copied"))
    .addOption(
      new Option("--chunk-size <rows>", "rows read and written at a time")
        .argParser(positiveInteger(1_000_000))
        .default(DEFAULT_CHUNK_SIZE),
    )
    .action(async (type: string, username: string, hostname: string, database: string, options: ConvertOptions) => {
      if (type !== TARGET_TYPE) {
        throw new CommandError(`type ${type} is not supported: Keystream converts to ${TARGET_TYPE} (PostgreSQL) only`);
      }
      const named = targetUrl(username, hostname, database, options);
      const environment = context.environment;
      const { SQLITE_FILE, openStorage } = await import("../../storage/driver/connect.js");
      const sqliteFile = path.join(environment.dataDir, SQLITE_FILE);
      // The source is the SQLite file: without it there is nothing to convert (and nothing is made).
      if (!fs.existsSync(sqliteFile)) throw noInstance(`${environment.dataDir} (no ${SQLITE_FILE} there)`);
      // Before anything is copied: where the new URL will go, and that it can be written there.
      const { update, url } = configurationUpdate(context, named);
      const { convertToPostgres, ConversionError } = await import("../../storage/lifecycle/convert-to-postgres.js");
      let opened: Awaited<ReturnType<typeof openInstance>> | undefined;
      let target: ReturnType<typeof openStorage> | undefined;
      try {
        // The source as every other command opens it: brought to this release's migrations first.
        opened = await openInstance({ ...environment, databaseUrl: undefined }, {}, (line) => context.progress(line));
        target = openStorage({
          databaseUrl: url,
          dataDir: environment.dataDir,
          timeouts: { connectMs: environment.database?.connectTimeoutMs },
        });
        const report = await convertToPostgres(opened.storage, target, {
          chunkSize: options.chunkSize,
          clearSchema: options.clearSchema === true,
          progress: (line) => context.progress(line),
          switchOver: update,
        }).catch((error: unknown) => {
          throw error instanceof ConversionError ? new CommandError(`nothing converted: ${error.message}`) : error;
        });
        const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
        context.print(`Copied ${report.tables.length} tables (${rows} rows) from ${sqliteFile} to ${target.describe}.`);
        context.print(
          update
            ? `${update.file} now sets database_url to it. Restart Keystream (every node) to use PostgreSQL.`
            : `${processSettingDefinitions.database_url.variable} already names it. Restart Keystream (every node) to use PostgreSQL.`,
        );
        context.print(`${sqliteFile} is left as it was: keep it as a backup.`);
      } finally {
        update?.discard();
        await target?.close();
        await opened?.storage.close();
      }
    });
}

/** postgres://user:password@host:port/database; the password from --password, else PGPASSWORD (libpq's variable). */
function targetUrl(username: string, hostname: string, database: string, options: ConvertOptions): string {
  const hostAndPort = /^(.*):(\d+)$/.exec(hostname);
  if (hostAndPort && options.port !== undefined) {
    throw new CommandError(`give the port once: in the hostname (${hostname}) or with --port`);
  }
  const host = hostAndPort ? (hostAndPort[1] as string) : hostname;
  const port = hostAndPort ? Number(hostAndPort[2]) : options.port;
  const password = options.password ?? process.env.PGPASSWORD;
  const credentials = encodeURIComponent(username) + (password ? `:${encodeURIComponent(password)}` : "");
  const url = `postgres://${credentials}@${host}${port ? `:${port}` : ""}/${encodeURIComponent(database)}`;
  try {
    new URL(url);
  } catch {
    throw new CommandError(`not a valid database address: host ${hostname}, database ${database}`);
  }
  return url;
}

/** The same database: user, host, port and name (the password aside). */
function sameDatabase(a: string, b: string): boolean {
  const key = (text: string) => {
    const url = new URL(text);
    return [decodeURIComponent(url.username), url.hostname, url.port || "5432", decodeURIComponent(url.pathname)].join(" ");
  };
  return key(a) === key(b);
}

/**
 * Where the new database URL goes: the configuration file, prepared now. An environment variable
 * naming the database would win over the file: then it must already name the target (nothing to
 * write; its URL is used, password included), else the conversion is refused before anything is copied.
 */
function configurationUpdate(context: CommandContext, url: string): { update?: DatabaseUrlUpdate; url: string } {
  const variables = [processSettingDefinitions.database_url.variable, processSettingDefinitions.database_url_file.variable];
  const fromEnvironment = variables.find((name) => process.env[name]);
  if (fromEnvironment) {
    const current = context.environment.databaseUrl;
    // The variable's URL is the one the server will use (its password included).
    if (current && sameDatabase(current, url)) return { url: current };
    throw new CommandError(
      `${fromEnvironment} is set and overrides the configuration file: set it to the new database ` +
        `(${url.replace(/:[^:@/]*@/, "@")}) where the server's environment is kept, then run this again`,
    );
  }
  const configFile = context.environment.configFile?.path ?? defaultConfigFile();
  try {
    return { update: prepareDatabaseUrlUpdate(configFile, url), url };
  } catch (error) {
    throw new CommandError((error as Error).message);
  }
}
