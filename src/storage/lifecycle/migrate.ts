import { DEFAULT_MIGRATION_TABLE, type Kysely, type Migration, type MigrationResult, Migrator, sql } from "kysely";
import { keystreamVersion } from "../../product.js";
import { isDatabaseUnavailable } from "../driver/availability.js";
import type { Storage } from "../driver/connect.js";
import { allMigrations } from "../migrations/index.js";

export interface MigrationReport {
  applied: string[];
}

/** Told before each migration runs: its name, its place among this run's migrations, their count. */
export type MigrationProgress = (step: { name: string; position: number; count: number }) => void;

/**
 * Brings the schema to the newest version. Kysely's migrator takes a lock (an advisory lock on
 * PostgreSQL), so several nodes starting at once apply each migration exactly once. On SQLite
 * Kysely's lock is a no-op (it assumes one process), so a server and `./occ` starting on the same
 * fresh file could both apply a migration: there the whole run is one IMMEDIATE transaction, which
 * holds the file's write lock (the other process waits, busy_timeout) and is all-or-nothing.
 */
export async function migrateToLatest(storage: Storage, onProgress?: MigrationProgress): Promise<MigrationReport> {
  if (storage.dialect !== "sqlite") {
    // On PostgreSQL without the statement timeout: a migration may rebuild a large table, and a node
    // waits on the migration lock for as long as another node migrates.
    return storage.withoutStatementTimeout((db) => runMigrations(db, storage.dialect, onProgress));
  }
  return storage.db.connection().execute(async (db) => {
    await sql`BEGIN IMMEDIATE`.execute(db);
    try {
      const report = await runMigrations(db, storage.dialect, onProgress);
      await sql`COMMIT`.execute(db);
      return report;
    } catch (error) {
      await sql`ROLLBACK`.execute(db).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * The database was migrated by a newer Keystream release than this one: it holds a migration this
 * release does not have. Starting would meet a schema it does not know, so it stops, saying what to do.
 */
export class DatabaseNewerThanRelease extends Error {
  constructor(readonly unknownMigrations: readonly string[]) {
    const [first] = unknownMigrations;
    const more = unknownMigrations.length > 1 ? ` and ${unknownMigrations.length - 1} more` : "";
    super(
      `the database was migrated by a newer Keystream release: it has migration ${first}${more}, which Keystream ${keystreamVersion()} does not know; start the newer release again, or restore the backup taken before the upgrade (docs/deployment.md "Rolling back a release")`,
    );
    this.name = "DatabaseNewerThanRelease";
  }
}

/** The migrations the database has applied that this release does not know (a newer release's). */
async function unknownAppliedMigrations(db: Kysely<any>, known: Record<string, Migration>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) return [];
  const applied = await db.selectFrom(DEFAULT_MIGRATION_TABLE).select("name").orderBy("name").execute();
  return applied.map((row: { name: string }) => row.name).filter((name) => !(name in known));
}

/**
 * Brings the schema to the newest version inside a transaction the caller opened (BEGIN) on `db`, a
 * Kysely bound to that one connection (`Kysely.connection()`): the migrations commit or roll back
 * with the caller's work (storage/lifecycle/convert-to-postgres.ts). PostgreSQL only: its DDL is transactional
 * and Kysely's migration lock there is a transaction-level advisory lock.
 */
export function migrateWithinTransaction(db: Kysely<any>, dialect: Storage["dialect"]): Promise<MigrationReport> {
  return runMigrations(db, dialect, undefined, true);
}

async function runMigrations(
  db: Kysely<any>,
  dialect: Storage["dialect"],
  onProgress: MigrationProgress | undefined,
  insideTransaction = false,
): Promise<MigrationReport> {
  const migrations = allMigrations(dialect);
  const unknown = await unknownAppliedMigrations(db, migrations);
  if (unknown.length > 0) throw new DatabaseNewerThanRelease(unknown);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => (onProgress ? reporting(migrations, onProgress) : migrations) },
    disableTransactions: insideTransaction,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === "Error");
    // No migration failed (the database could not be reached or locked), or one failed because the
    // database went away: the error as it is, so that it classifies as an outage (driver/availability.ts)
    // and start-up retries; the run was one transaction, so nothing of it stayed.
    if (!failed || isDatabaseUnavailable(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed.migrationName} failed: ${message}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}

/**
 * Wraps each migration to announce itself before it runs. Kysely applies the pending migrations in
 * name order, each after every earlier one, so the first to run fixes how many this run applies
 * (decided inside the migration lock: a concurrent runner that already applied them runs none).
 */
function reporting(migrations: Record<string, Migration>, onProgress: MigrationProgress): Record<string, Migration> {
  const names = Object.keys(migrations).sort();
  let count: number | undefined;
  let position = 0;
  return Object.fromEntries(
    names.map((name, index) => {
      const migration = migrations[name] as Migration;
      const up: Migration["up"] = async (db) => {
        count ??= names.length - index;
        position += 1;
        onProgress({ name, position, count });
        await migration.up(db);
      };
      return [name, { ...migration, up }];
    }),
  );
}

/** The migrations the database has not applied yet, in order (`./occ status`). */
export async function pendingMigrations(storage: Storage): Promise<string[]> {
  const migrator = new Migrator({
    db: storage.db,
    provider: { getMigrations: async () => allMigrations(storage.dialect) },
  });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** True when migrations exist that the database has not applied yet (status.php `needsDbUpgrade`). */
export async function hasPendingMigrations(storage: Storage): Promise<boolean> {
  return (await pendingMigrations(storage)).length > 0;
}

/** True when a Keystream schema exists in the database (migrations were ever applied to it). */
export async function isInstalled(storage: Storage): Promise<boolean> {
  const tables = await storage.db.introspection.getTables({ withInternalKyselyTables: true });
  return tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE);
}
