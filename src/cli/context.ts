import fs from "node:fs";
import path from "node:path";
import { type Environment, readEnvironment } from "../config/environment.js";
import type { Result } from "../refusal.js";
import type { Services } from "../services.js";
import type { Storage } from "../storage/driver/connect.js";
import { ownerCheckOf, ownerRefusal } from "./data-dir-owner.js";

/** A refused command: exit code 1, its message on one line of stderr. */
export class CommandError extends Error {}

/** The value of `result`; a refusal ends the command with its English text (exit 1). */
export function valueOrExit<T>(result: Result<T>): T {
  if (!result.ok) throw new CommandError(result.message);
  return result.value;
}

export interface OpenOptions {
  /**
   * A command that adds something (user:add, oauth2:add-client, config:system:set, migrate …) may
   * start a new instance where none is, and says so on stderr. Every other command needs an
   * existing one: reading an empty data directory must not leave a database behind (occ pointed at
   * the wrong directory would otherwise report success against a new, empty instance).
   */
  create?: boolean;
  /** Apply pending migrations first (the default); `status` looks at the database as it is. */
  migrate?: boolean;
}

export interface OpenedInstance {
  storage: Storage;
  /** Migrations this opening applied. */
  applied: string[];
}

/**
 * The one decision of which instance occ works on, and whether it may create it: the data
 * directory and database of the environment (KEYSTREAM_DATA_DIR, KEYSTREAM_DATABASE_URL), as the
 * server reads them. An instance exists when its database holds Keystream's schema; on SQLite the
 * file's absence is checked first, because opening it would create it.
 */
export async function openInstance(
  environment: Environment,
  options: OpenOptions,
  progress: (line: string) => void,
): Promise<OpenedInstance> {
  const [
    { openStorage, SQLITE_FILE },
    { isInstalled, migrateToLatest },
    { isDatabaseUnavailable, unavailableReason },
    { refuseEmptyPostgresBesideSqlite, StrandedSqliteError },
  ] = await Promise.all([
    import("../storage/driver/connect.js"),
    import("../storage/lifecycle/migrate.js"),
    import("../storage/driver/availability.js"),
    import("../storage/lifecycle/stranded-sqlite.js"),
  ]);
  const { dataDir, databaseUrl } = environment;
  if (!databaseUrl && !options.create && !fs.existsSync(path.join(dataDir, SQLITE_FILE))) {
    throw noInstance(`${dataDir} (no ${SQLITE_FILE} there)`);
  }
  const storage = openStorage({
    databaseUrl,
    dataDir,
    timeouts: { connectMs: environment.database?.connectTimeoutMs, statementMs: environment.database?.statementTimeoutMs },
    onPermissionsFixed: ({ fixed, failed }) =>
      progress(
        `data directory ${dataDir} made readable by its owner only (${fixed.length} fixed` +
          (failed.length > 0 ? `, ${failed.length} could not be changed: ${failed.map((f) => f.path).join(", ")})` : ")"),
      ),
  });
  try {
    if (databaseUrl) {
      // As the server: never work on an empty PostgreSQL instance beside a SQLite file with users.
      await refuseEmptyPostgresBesideSqlite(storage, dataDir, databaseUrl).catch((error: unknown) => {
        throw error instanceof StrandedSqliteError ? new CommandError(error.message) : error;
      });
    }
    const installed = await isInstalled(storage);
    if (!installed && !options.create) throw noInstance(databaseUrl ? `the database ${storage.describe}` : dataDir);
    if (options.migrate === false) return { storage, applied: [] };
    const { applied } = await migrateToLatest(storage, ({ name, position, count }) =>
      progress(`migrating: ${name} (${position}/${count})`),
    );
    // A concurrent runner may have created it meanwhile: then this one applied nothing.
    if (!installed && applied.length > 0) {
      progress(`created a new Keystream instance: data directory ${dataDir}, database ${storage.describe}`);
    }
    return { storage, applied };
  } catch (error) {
    await storage.close();
    if (isDatabaseUnavailable(error)) {
      throw new DatabaseUnreachableError(storage.dialect, storage.describe.replace(/^sqlite:/, ""), unavailableReason(error));
    }
    throw error;
  }
}

/** The database did not answer (connection refused, timed out, locked past the busy timeout). */
export class DatabaseUnreachableError extends CommandError {
  constructor(
    readonly dialect: string,
    /** Where it is, without credentials. */
    readonly location: string,
    /** The code it failed with (storage/driver/availability.ts unavailableReason). */
    readonly reason: string,
  ) {
    super(`the database ${location} is unreachable (${reason})`);
  }
}

/** The refusal of a command that needs an instance where none is. */
export function noInstance(where: string): CommandError {
  return new CommandError(
    `no Keystream instance in ${where}; give data_dir (and database_url) in the configuration file the server reads, ` +
      "or set KEYSTREAM_DATA_DIR (and KEYSTREAM_DATABASE_URL) as the server has them",
  );
}

/**
 * What a command works with: the same services the server uses, on the same database. Opened on
 * first use (so `--help` touches nothing) and migrated.
 */
export class CommandContext {
  private services: Services | undefined;
  private storage: Storage | undefined;

  constructor(
    readonly out: (text: string) => void = (text) => process.stdout.write(text),
    private givenEnvironment?: Environment,
    /** Progress and notices: stderr, so that stdout stays parseable. */
    readonly err: (text: string) => void = (text) => process.stderr.write(text),
  ) {}

  /**
   * The configuration file and environment, as the server reads them; read on first use, so that
   * `--help` works beside a broken file and a broken one is reported as the command's error.
   */
  get environment(): Environment {
    this.givenEnvironment ??= readEnvironment();
    return this.givenEnvironment;
  }

  /**
   * Refuses (exit 1, the command to run instead) unless this process runs as the owner of the
   * data directory (data-dir-owner.ts); `argv` is repeated in the answer.
   */
  assertRunsAsOwner(argv: string[]): void {
    const check = ownerCheckOf(this.environment.dataDir, argv);
    const refusal = check && ownerRefusal(check);
    if (refusal) throw new CommandError(refusal);
  }

  /** Opens the instance (see openInstance) and returns the migrations this applied. */
  async openStorage(options: OpenOptions = {}): Promise<OpenedInstance> {
    const opened = await openInstance(this.environment, options, (line) => this.progress(line));
    this.storage = opened.storage;
    return opened;
  }

  async open(options: OpenOptions = {}): Promise<Services> {
    if (this.services) return this.services;
    // Loaded here, not at the top: `--help` and argument errors answer without loading the
    // database drivers and every domain module.
    const [{ default: pino }, { createServices }] = await Promise.all([import("pino"), import("../services.js")]);
    const { storage } = this.storage ? { storage: this.storage } : await this.openStorage(options);
    // Commands print their own results; the structured log goes to stderr, warnings only.
    const log = pino({ level: process.env.LOG_LEVEL ? this.environment.logLevel : "warn" }, pino.destination(2));
    this.services = createServices({ storage, dataDir: this.environment.dataDir, log });
    return this.services;
  }

  async close(): Promise<void> {
    // Logout tokens a command queued (user:disable, user:delete…) are sent before it exits; what
    // fails stays queued for the server's retries.
    await this.services?.oidc.backchannel.settled();
    // The audit events a command recorded are written before the database closes.
    await this.services?.audit.flush();
    await (this.services?.storage ?? this.storage)?.close();
    this.services = undefined;
    this.storage = undefined;
  }

  print(line = ""): void {
    this.out(`${line}\n`);
  }

  /** A progress line on stderr (`migrating: … (3/5)`). */
  progress(line: string): void {
    this.err(`${line}\n`);
  }
}
