import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type SqliteDatabase from "better-sqlite3";
import { Kysely, type KyselyConfig, PostgresDialect, SqliteDialect, type SqliteDialectConfig, sql } from "kysely";
import type pg from "pg";
import { type AvailabilityLog, DatabaseAvailability, raisedByDatabase } from "./availability.js";
import { type PermissionsReport, secureDataDir } from "./data-dir-permissions.js";
import type { Database, Dialect } from "./database.js";
import { databaseBoundary } from "./database-boundary.js";
import {
  type DatabaseTimeouts,
  DEFAULT_DATABASE_TIMEOUTS,
  PostgresConnectionGuard,
  postgresTimeoutOptions,
} from "./postgres-pool.js";
import { type DirectExecutor, executeDirectlyOn, runTransactionsWith, serverStatementName } from "./prepared.js";
import { SqliteCheckpointer } from "./sqlite-checkpointer.js";

/**
 * Each driver is loaded when a database of its kind is opened, not with this module: a server
 * on SQLite never needs pg (≈ 3 MB of heap), one on PostgreSQL never needs better-sqlite3. Both are
 * CommonJS, so the load is synchronous, as openStorage is.
 */
const load = createRequire(import.meta.url);
let postgresDriver: typeof pg | undefined;

function loadPostgresDriver(): typeof pg {
  if (!postgresDriver) {
    postgresDriver = load("pg") as typeof pg;
    // int8 (bigint, count(*)) comes back as a string from pg; every int8 we store (epoch seconds,
    // ids) fits a JS number, so parse it as one and both dialects return the same shapes.
    postgresDriver.types.setTypeParser(20, (value) => Number(value));
  }
  return postgresDriver;
}

export interface StorageOptions {
  /** `postgres://…` selects PostgreSQL; absent selects the embedded SQLite file. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
  /**
   * SQLite: checkpoint the WAL on a worker thread (see SqliteCheckpointer), for the server. Off for
   * short-lived openers (`./occ`, tests), whose own auto-checkpoint is enough.
   */
  backgroundCheckpoints?: {
    onError(message: string): void;
    onRecovered?(): void;
    /** The worker starts once the WAL file holds this many bytes (CHECKPOINT_WORKER_AT_WAL_BYTES); 0: at once. */
    startAtWalBytes?: number;
  };
  /** Told every statement's duration (ms) and whether it failed, from the start (the server's metrics). */
  queryObserver?: QueryObserver | undefined;
  /** Told which data directory permissions were tightened at open (data-dir-permissions.ts); the server logs it. */
  onPermissionsFixed?(report: PermissionsReport): void;
  /** Bounds on waiting for the database; DEFAULT_DATABASE_TIMEOUTS where absent. */
  timeouts?: { connectMs?: number | undefined; statementMs?: number | undefined } | undefined;
  /** Where database outages are logged (a warning as one starts, an info line as it ends). */
  log?: AvailabilityLog | undefined;
  /** How often an unavailable database is probed (ms, default 1000). */
  probeIntervalMs?: number | undefined;
}

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Human-readable target, without credentials, for logs. */
  describe: string;
  /** Outages of this database: see availability.ts. */
  availability: DatabaseAvailability;
  /** PostgreSQL only: the pool's connections (metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** PostgreSQL only: a new connection outside the pool, not yet connected (LISTEN: stores/push/push-channel.ts). */
  dedicatedClient?: () => pg.Client;
  /**
   * Replaces the observer of every statement's duration (ms) and failure (`queryObserver` at open);
   * the tests count statements with it. Statements Kysely runs are timed by its `log` hook, those
   * run directly on the SQLite handle (prepared.ts) here.
   */
  observeQueries(observer: QueryObserver): void;
  /** Runs `work` on one connection without the statement timeout (migrations may run long). */
  withoutStatementTimeout<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type QueryObserver = (milliseconds: number, failed: boolean) => void;

/** Kysely's `log` option feeding the storage's query observer, and the slot that observer sits in. */
function queryTiming(observer: QueryObserver | undefined): { slot: { observer?: QueryObserver }; log: KyselyConfig["log"] } {
  const slot: { observer?: QueryObserver } = observer ? { observer } : {};
  return { slot, log: (event) => slot.observer?.(event.queryDurationMillis, event.level === "error") };
}

/** The embedded database's file name inside the data directory. */
export const SQLITE_FILE = "keystream.sqlite";

/**
 * The checkpoint worker's start (sqlite-checkpointer.ts): once the WAL has held 4 MiB, the size at
 * which SQLite's own default auto-checkpoint (1000 pages of 4 KiB) would have copied it back.
 */
const CHECKPOINT_WORKER_AT_WAL_BYTES = 4 * 1024 * 1024;

export function openStorage(options: StorageOptions): Storage {
  const timeouts: DatabaseTimeouts = {
    connectMs: options.timeouts?.connectMs ?? DEFAULT_DATABASE_TIMEOUTS.connectMs,
    statementMs:
      options.timeouts?.statementMs ?? DEFAULT_DATABASE_TIMEOUTS.statementMs[options.databaseUrl ? "postgres" : "sqlite"],
  };
  const sqliteFile = options.sqliteFile ?? SQLITE_FILE;
  const postgres = options.databaseUrl ? openPostgres(options.databaseUrl, timeouts, options) : undefined;
  // Data directory 0700, its files 0600, the SQLite file created 0600 (data-dir-permissions.ts).
  secureDataDir(options.dataDir, postgres ? undefined : sqliteFile, options.onPermissionsFixed);
  return postgres ?? openSqlite(path.join(options.dataDir, sqliteFile), timeouts, options);
}

/** The availability monitor of a storage: probes with a `select 1` on its own Kysely instance. */
function availabilityOf(db: Kysely<Database>, database: string, options: StorageOptions): DatabaseAvailability {
  return new DatabaseAvailability({
    database,
    probe: () => sql`select 1`.execute(db),
    log: options.log,
    probeIntervalMs: options.probeIntervalMs,
  });
}

function openSqlite(file: string, timeouts: DatabaseTimeouts, options: StorageOptions): Storage {
  const { backgroundCheckpoints } = options;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const Sqlite = load("better-sqlite3") as typeof SqliteDatabase;
  const sqlite = new Sqlite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // `./occ` runs beside the server on the same file: wait for a writer instead of failing, but
  // boundedly (the wait blocks the process): past it, SQLITE_BUSY answers 503 (availability.ts).
  sqlite.pragma(`busy_timeout = ${Math.trunc(timeouts.statementMs)}`);
  // Checkpoint every ~40 MB of WAL instead of SQLite's default ~4 MB: each checkpoint copies the
  // pages back and syncs both files, and token writes touch random index pages (hashes), so fewer,
  // larger checkpoints write each hot page once instead of many times (profiled: with the default, a
  // third of a code exchange's cost is commit + checkpoint; docs/performance.md). Durability is unchanged.
  sqlite.pragma("wal_autocheckpoint = 10000");
  const database = withStatementCache(sqlite);
  const timing = queryTiming(options.queryObserver);
  const db = new Kysely<Database>({ dialect: databaseBoundary(new SqliteDialect({ database })), log: timing.log });
  // Single-column reads answered as bare values (PreparedQuery.column): their own statement objects,
  // never handed to Kysely's driver, which expects row objects from the shared cache above.
  const pluckStatements = new Map<string, SqliteDatabase.Statement>();
  const plucking = (text: string) => {
    let statement = pluckStatements.get(text);
    if (!statement) {
      statement = sqlite.prepare(text).pluck(true);
      pluckStatements.set(text, statement);
    }
    return statement;
  };
  const runUntimed: DirectExecutor = (text, parameters, pluck) => {
    if (pluck) return { rows: plucking(text).all(parameters as unknown[]) };
    const statement = database.prepare(text);
    if (statement.reader) return { rows: statement.all(parameters as unknown[]) };
    const { changes, lastInsertRowid } = statement.run(parameters as unknown[]);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  };
  // The statements run here bypass Kysely's driver (database-boundary.ts): their errors are marked
  // as the database's here.
  const runDirectly: DirectExecutor = (text, parameters, pluck) => {
    const observer = timing.slot.observer;
    const started = observer ? performance.now() : 0;
    try {
      const result = runUntimed(text, parameters, pluck);
      observer?.(performance.now() - started, false);
      return result;
    } catch (error) {
      observer?.(performance.now() - started, true);
      throw raisedByDatabase(error);
    }
  };
  const onHandle = (statement: SqliteDatabase.Statement): void => {
    try {
      statement.run();
    } catch (error) {
      throw raisedByDatabase(error);
    }
  };
  // Outside a transaction a statement is atomic and runs to its end before any other JavaScript,
  // so it cannot interleave with another query: what Kysely's connection mutex guards is a
  // transaction spanning awaits, and while one is open (`inTransaction`) the statement waits its
  // turn through Kysely like any other.
  executeDirectlyOn(db, (text, parameters, pluck) => (sqlite.inTransaction ? undefined : runDirectly(text, parameters, pluck)));
  // A transaction holds Kysely's connection (so every other query waits for it, as above) and runs
  // its own statements on the handle; Kysely's transaction machinery cost ≈ 2 µs a statement.
  const begin = sqlite.prepare("begin");
  const commit = sqlite.prepare("commit");
  const rollback = sqlite.prepare("rollback");
  runTransactionsWith(db, (work) =>
    db.connection().execute(async (connection) => {
      executeDirectlyOn(connection, runDirectly);
      onHandle(begin);
      try {
        const result = await work(connection);
        onHandle(commit);
        return result;
      } catch (error) {
        // A failed COMMIT or a statement error may already have ended the transaction.
        if (sqlite.inTransaction) onHandle(rollback);
        throw error;
      }
    }),
  );
  const checkpointer =
    backgroundCheckpoints &&
    new SqliteCheckpointer(
      file,
      backgroundCheckpoints.onError,
      backgroundCheckpoints.onRecovered,
      backgroundCheckpoints.startAtWalBytes ?? CHECKPOINT_WORKER_AT_WAL_BYTES,
    );
  const availability = availabilityOf(db, `sqlite:${file}`, options);
  return {
    db,
    dialect: "sqlite",
    describe: `sqlite:${file}`,
    availability,
    observeQueries: (observer) => {
      timing.slot.observer = observer;
    },
    // SQLite has no statement timeout (busy_timeout only bounds waiting for a lock).
    withoutStatementTimeout: (work) => work(db),
    close: async () => {
      availability.close();
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** Distinct SQL texts kept prepared; the app issues far fewer (bulk inserts vary by row count). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement anew on each query; compiling the SQL is then the
 * largest single cost of a token or userinfo request (docs/performance.md). Statements are reused by
 * SQL text (at most STATEMENT_CACHE_SIZE, oldest evicted first). Safe because the driver runs one query at a time on its
 * single connection, and a statement still iterating (a stream) is never handed out again.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig["database"] & {
  prepare(text: string): SqliteDatabase.Statement;
} {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(text);
      if (!cached) {
        // Oldest first out: the hot statements are re-added soon after if ever evicted.
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * PreparedQuery statements (the token endpoint's, bearer authentication's …) go to PostgreSQL as
 * named statements: prepared on a connection's first use and then only bound and executed, instead
 * of parsed and planned on every request (docs/performance.md). Every other query goes through
 * Kysely unchanged.
 */
function keepHotStatementsPrepared(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (config: unknown, values?: unknown, callback?: unknown) => unknown;
  const withNames = (config: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof config === "string" && Array.isArray(values) ? serverStatementName(config) : undefined;
    return name === undefined ? query(config, values, callback) : query({ name, text: config, values }, callback);
  };
  (client as unknown as { query: typeof withNames }).query = withNames;
}

function openPostgres(url: string, timeouts: DatabaseTimeouts, options: StorageOptions): Storage {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error("KEYSTREAM_DATABASE_URL must start with postgres:// or postgresql://");
  }
  const pool = new (loadPostgresDriver().Pool)({ connectionString: url, max: 10, ...postgresTimeoutOptions(timeouts) });
  pool.on("connect", keepHotStatementsPrepared);
  const parsed = new URL(url);
  const describe = `postgres://${parsed.host}${parsed.pathname}`;
  let availability: DatabaseAvailability | undefined;
  const guard = new PostgresConnectionGuard(pool, timeouts, (error) => availability?.failed(error, "idle connection"));
  const timing = queryTiming(options.queryObserver);
  const db = new Kysely<Database>({
    dialect: databaseBoundary(new PostgresDialect({ pool: guard.kyselyPool() })),
    log: timing.log,
  });
  availability = availabilityOf(db, describe, options);
  return {
    db,
    dialect: "postgres",
    describe,
    availability,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    dedicatedClient: () =>
      new (loadPostgresDriver().Client)({ connectionString: url, connectionTimeoutMillis: timeouts.connectMs }),
    observeQueries: (observer) => {
      timing.slot.observer = observer;
    },
    withoutStatementTimeout: (work) =>
      guard.unboundedWhile(() =>
        db.connection().execute(async (connection) => {
          await sql`SET statement_timeout = 0`.execute(connection);
          try {
            return await work(connection);
          } finally {
            // A connection that failed is dropped by the pool; a healthy one goes back bounded.
            await sql`RESET statement_timeout`.execute(connection).catch(() => undefined);
          }
        }),
      ),
    close: async () => {
      availability?.close();
      await db.destroy();
    },
  };
}
