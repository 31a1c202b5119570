import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ConfigurationError,
  enumSetting,
  fromVariable,
  integerSetting,
  readJsonObject,
  readVariables,
  stringListSetting,
  stringSetting,
  validateObject,
} from "./setting.js";
import { type ServerTimeouts, timeoutSettingDefinitions, timeoutsFromSettings } from "./timeouts.js";

/**
 * The application root (where package.json and ./occ live), from src/config or dist/config alike.
 * Node resolves symlinks in module URLs, so this is the real release directory.
 */
export const APP_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Names the configuration file to read instead of `<app root>/config/keystream.json`. */
export const CONFIG_VARIABLE = "KEYSTREAM_CONFIG";

/** The path of the configuration file when KEYSTREAM_CONFIG is unset. */
export function defaultConfigFile(appRoot = APP_ROOT): string {
  return path.join(appRoot, "config", "keystream.json");
}

/** Pino's levels: a typo is refused here, naming LOG_LEVEL and the valid values (pino's own error names neither). */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/**
 * Every process setting, declared once: its key in the configuration file and its environment
 * variable (which overrides the file, key by key). The server and `./occ` both read them through
 * readEnvironment, so they open the same instance.
 */
export const processSettingDefinitions = {
  host: fromVariable("HOST", stringSetting("Address to listen on.", "127.0.0.1", { minLength: 1, expected: "an address" })),
  port: fromVariable("PORT", integerSetting("TCP port to listen on (0: any free port).", 8080, 0, 65_535)),
  data_dir: fromVariable(
    "KEYSTREAM_DATA_DIR",
    stringSetting("Data directory (SQLite file, config.json); relative to the configuration file's directory.", "", {
      minLength: 1,
      expected: "a directory path",
    }),
  ),
  database_url: fromVariable(
    "KEYSTREAM_DATABASE_URL",
    stringSetting("postgres://user@host/db selects PostgreSQL; unset selects SQLite in the data directory.", "", {
      minLength: 1,
      expected: "a postgres:// URL",
    }),
  ),
  database_url_file: fromVariable(
    "KEYSTREAM_DATABASE_URL_FILE",
    stringSetting("A file holding database_url (a secret kept out of the configuration).", "", {
      minLength: 1,
      expected: "a file path",
    }),
  ),
  database_password_file: fromVariable(
    "KEYSTREAM_DATABASE_PASSWORD_FILE",
    stringSetting("A file holding the database password, put into database_url.", "", { minLength: 1, expected: "a file path" }),
  ),
  trusted_proxies: fromVariable(
    "KEYSTREAM_TRUSTED_PROXIES",
    stringListSetting("Proxies whose X-Forwarded-* headers are believed (addresses or CIDRs)."),
  ),
  log_level: fromVariable("LOG_LEVEL", enumSetting("Lowest level logged.", "info", LOG_LEVELS)),
  metrics_port: fromVariable(
    "KEYSTREAM_METRICS_PORT",
    integerSetting("Port of the metrics and health listener (/metrics, /health/*); unset: no listener.", 0, 0, 65_535),
  ),
  metrics_host: fromVariable(
    "KEYSTREAM_METRICS_HOST",
    stringSetting("Address of the metrics listener.", "127.0.0.1", { minLength: 1, expected: "an address" }),
  ),
  ...timeoutSettingDefinitions,
  db_connect_timeout_ms: fromVariable(
    "KEYSTREAM_DB_CONNECT_TIMEOUT_MS",
    integerSetting("Milliseconds to wait for a database connection.", 0, 1, 86_400_000, "milliseconds"),
  ),
  db_statement_timeout_ms: fromVariable(
    "KEYSTREAM_DB_STATEMENT_TIMEOUT_MS",
    integerSetting("Milliseconds a statement may run.", 0, 1, 86_400_000, "milliseconds"),
  ),
  db_startup_timeout_ms: fromVariable(
    "KEYSTREAM_DB_STARTUP_TIMEOUT_MS",
    integerSetting("Milliseconds to wait for the database at start.", 0, 1, 86_400_000, "milliseconds"),
  ),
} as const;

/** Process-level configuration from the configuration file and the environment, validated once at start. */
export interface Environment {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  /** Proxies whose X-Forwarded-* headers are believed (comma-separated addresses or CIDRs). */
  trustedProxies: string[];
  /** HTTP timeouts and the shutdown grace period (config/timeouts.ts). */
  timeouts: ServerTimeouts;
  /**
   * Bounds on waiting for the database, in ms; absent values take the storage's
   * defaults (storage/driver/postgres-pool.ts, storage/lifecycle/startup.ts).
   */
  database?: {
    connectTimeoutMs?: number | undefined;
    statementTimeoutMs?: number | undefined;
    startupTimeoutMs?: number | undefined;
  };
  /** The configuration file looked for, and whether it was there (`./occ status` shows it). */
  configFile?: { path: string; read: boolean };
  /**
   * Where each process setting's effective value came from (`./occ status` shows it): its default,
   * the configuration file, or its environment variable (which wins, key by key).
   */
  sources?: Record<ProcessSettingKey, SettingSource>;
  /** The settings given in both the file and the environment with different values (logged once at start). */
  shadowed?: ShadowedSetting[];
  /** The metrics and health listener (http/metrics-listener.ts); undefined (off) unless metrics_port is set. */
  metricsListener?: MetricsListener | undefined;
}

export type ProcessSettingKey = keyof typeof processSettingDefinitions;

export type SettingSource = "default" | "file" | `environment ${string}`;

/** A setting the configuration file gives one value and its environment variable another: the variable's wins. */
export interface ShadowedSetting {
  key: ProcessSettingKey;
  variable: string;
  fileValue: unknown;
  environmentValue: unknown;
}

/** Where GET /metrics, /health/live and /health/ready are served apart from the public port. */
export interface MetricsListener {
  host: string;
  port: number;
}

/**
 * Reads the configuration file (KEYSTREAM_CONFIG, else `<app root>/config/keystream.json`; a
 * missing default file means defaults), then the environment over it. Anything invalid (syntax,
 * unknown key, wrong type, bad variable) throws one ConfigurationError naming file or variable.
 */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env, options: { appRoot?: string } = {}): Environment {
  const configPath = env[CONFIG_VARIABLE] ? path.resolve(env[CONFIG_VARIABLE]) : defaultConfigFile(options.appRoot);
  const fromFile = readConfigFile(configPath, Boolean(env[CONFIG_VARIABLE]));
  const fromEnv = readVariables(processSettingDefinitions, env);
  if (fromEnv.problems.length > 0) throw new ConfigurationError(fromEnv.problems.join("; "));
  const settings = { ...(fromFile?.values ?? {}), ...fromEnv.values };
  const text = (key: keyof typeof processSettingDefinitions) => settings[key] as string | undefined;
  const milliseconds = (key: keyof typeof processSettingDefinitions) => settings[key] as number | undefined;
  return {
    host: text("host") ?? processSettingDefinitions.host.defaultValue,
    port: (settings.port as number | undefined) ?? processSettingDefinitions.port.defaultValue,
    // A path from the environment is relative to the working directory, one from the file to the
    // file's real directory (a release's config/keystream.json may link to /etc/keystream/); the default, <app root>/data, lets `./occ` and the server agree anywhere.
    dataDir:
      fromEnv.values.data_dir !== undefined
        ? path.resolve(fromEnv.values.data_dir as string)
        : fromFile?.values.data_dir !== undefined
          ? path.resolve(path.dirname(fs.realpathSync(configPath)), fromFile.values.data_dir as string)
          : path.join(options.appRoot ?? APP_ROOT, "data"),
    databaseUrl: databaseUrl(settings),
    logLevel: text("log_level") ?? processSettingDefinitions.log_level.defaultValue,
    trustedProxies: (settings.trusted_proxies as string[] | undefined) ?? [],
    timeouts: timeoutsFromSettings(settings),
    database: {
      connectTimeoutMs: milliseconds("db_connect_timeout_ms"),
      statementTimeoutMs: milliseconds("db_statement_timeout_ms"),
      startupTimeoutMs: milliseconds("db_startup_timeout_ms"),
    },
    configFile: { path: configPath, read: fromFile !== undefined },
    ...settingSources(fromFile?.values ?? {}, fromEnv.values),
    // Off unless a port is set; on the loopback interface unless told otherwise, so the metrics are
    // not public by accident (docs/deployment.md).
    metricsListener:
      settings.metrics_port === undefined
        ? undefined
        : {
            host: text("metrics_host") ?? processSettingDefinitions.metrics_host.defaultValue,
            port: settings.metrics_port as number,
          },
  };
}

/** Each setting's source, and the settings the environment gives another value than the file. */
function settingSources(
  fromFile: Record<string, unknown>,
  fromEnvironment: Record<string, unknown>,
): { sources: Record<ProcessSettingKey, SettingSource>; shadowed: ShadowedSetting[] } {
  const keys = Object.keys(processSettingDefinitions) as ProcessSettingKey[];
  const shadowed: ShadowedSetting[] = [];
  const sources = Object.fromEntries(
    keys.map((key): [ProcessSettingKey, SettingSource] => {
      const variable = processSettingDefinitions[key].variable;
      if (fromEnvironment[key] !== undefined) {
        if (fromFile[key] !== undefined && JSON.stringify(fromFile[key]) !== JSON.stringify(fromEnvironment[key])) {
          shadowed.push({ key, variable, fileValue: fromFile[key], environmentValue: fromEnvironment[key] });
        }
        return [key, `environment ${variable}`];
      }
      return [key, fromFile[key] !== undefined ? "file" : "default"];
    }),
  ) as Record<ProcessSettingKey, SettingSource>;
  return { sources, shadowed };
}

function readConfigFile(file: string, named: boolean): { values: Record<string, unknown> } | undefined {
  if (!fs.existsSync(file)) {
    if (named) throw new ConfigurationError(`${CONFIG_VARIABLE} names ${file}, which does not exist`);
    return undefined;
  }
  let object: Record<string, unknown>;
  try {
    object = readJsonObject(file);
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof ConfigurationError) throw error;
    throw new ConfigurationError(`cannot read the configuration file ${file}: ${(error as Error).message}`);
  }
  const { values, problems } = validateObject(processSettingDefinitions, object);
  if (problems.length > 0) throw new ConfigurationError(`${file}: ${problems.join("; ")}`);
  return { values };
}

/** database_url, or the one in database_url_file; the password from database_password_file (Authelia-style secrets). */
function databaseUrl(settings: Record<string, unknown>): string | undefined {
  const {
    database_url: direct,
    database_url_file: urlFile,
    database_password_file: passwordFile,
  } = settings as Record<string, string | undefined>;
  if (direct !== undefined && urlFile !== undefined) {
    throw new ConfigurationError(
      "set database_url or database_url_file (KEYSTREAM_DATABASE_URL or KEYSTREAM_DATABASE_URL_FILE), not both",
    );
  }
  const url = urlFile !== undefined ? secret(urlFile, "database_url_file") : direct;
  if (passwordFile === undefined) return url;
  if (url === undefined) throw new ConfigurationError("database_password_file needs a database_url to put the password in");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError("database_url must be a postgres:// URL");
  }
  parsed.password = encodeURIComponent(secret(passwordFile, "database_password_file"));
  return parsed.toString();
}

/** A secret file's content without its final newline. */
function secret(file: string, key: string): string {
  try {
    return fs.readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new ConfigurationError(`${key}: cannot read ${file}: ${(error as Error).message}`);
  }
}
