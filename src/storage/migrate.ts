import { type MigrationResult, Migrator } from "kysely";
import type { Storage } from "./connect.js";
import { allMigrations } from "./migrations/index.js";

export interface MigrationReport {
  applied: string[];
}

/**
 * Brings the schema to the newest version. Kysely's migrator takes a lock (an advisory lock on
 * PostgreSQL), so several nodes starting at once apply each migration exactly once.
 */
export async function migrateToLatest(storage: Storage): Promise<MigrationReport> {
  const migrator = new Migrator({
    db: storage.db,
    provider: { getMigrations: async () => allMigrations(storage.dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === "Error");
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? "(unknown)"} failed: ${message}`);
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
