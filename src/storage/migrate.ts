import { type Kysely, type MigrationResult, Migrator, sql } from "kysely";
import { isDatabaseUnavailable } from "./availability.js";
import type { Storage } from "./connect.js";
import { allMigrations } from "./migrations/index.js";

export interface MigrationReport {
  applied: string[];
}

/**
 * Brings the schema to the newest version. Kysely's migrator takes a lock (an advisory lock on
 * PostgreSQL), so several nodes starting at once apply each migration exactly once. On SQLite
 * Kysely's lock is a no-op (it assumes one process), so a server and `./occ` starting on the same
 * fresh file could both apply a migration: there the whole run is one IMMEDIATE transaction, which
 * holds the file's write lock (the other process waits, busy_timeout) and is all-or-nothing.
 */
export async function migrateToLatest(storage: Storage): Promise<MigrationReport> {
  // On PostgreSQL without the statement timeout: a migration may rebuild a large table, and a node
  // waits on the migration lock for as long as another node migrates.
  if (storage.dialect !== "sqlite") return storage.withoutStatementTimeout((db) => runMigrations(db, storage.dialect));
  return storage.db.connection().execute(async (db) => {
    await sql`BEGIN IMMEDIATE`.execute(db);
    try {
      const report = await runMigrations(db, storage.dialect);
      await sql`COMMIT`.execute(db);
      return report;
    } catch (error) {
      await sql`ROLLBACK`.execute(db).catch(() => undefined);
      throw error;
    }
  });
}

async function runMigrations(db: Kysely<any>, dialect: Storage["dialect"]): Promise<MigrationReport> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => allMigrations(dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === "Error");
    // No migration failed (the database could not be reached or locked), or one failed because the
    // database went away: the error as it is, so that it classifies as an outage (availability.ts)
    // and start-up retries; the run was one transaction, so nothing of it stayed.
    if (!failed || isDatabaseUnavailable(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed.migrationName} failed: ${message}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}

/** True when migrations exist that the database has not applied yet (status.php `needsDbUpgrade`). */
export async function hasPendingMigrations(storage: Storage): Promise<boolean> {
  const migrator = new Migrator({
    db: storage.db,
    provider: { getMigrations: async () => allMigrations(storage.dialect) },
  });
  const all = await migrator.getMigrations();
  return all.some((m) => m.executedAt === undefined);
}
