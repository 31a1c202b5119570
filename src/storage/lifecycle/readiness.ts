import { sql } from "kysely";
import type { Storage } from "../driver/connect.js";
import { pendingMigrations } from "./migrate.js";

/** What /health/ready learns from the database: whether it answers, and the migrations it lacks. */
export type DatabaseReadiness = { reachable: true; pending: string[] } | { reachable: false; error: unknown };

/**
 * Asks the database a `select 1`, then (until once found current: a running server's migrations
 * never go back) which migrations it lacks. Errors are returned, not thrown; the caller bounds the wait.
 */
export function databaseReadinessProbe(storage: Storage): () => Promise<DatabaseReadiness> {
  let current = false;
  return async () => {
    try {
      await sql`select 1`.execute(storage.db);
      if (current) return { reachable: true, pending: [] };
      const pending = await pendingMigrations(storage);
      current = pending.length === 0;
      return { reachable: true, pending };
    } catch (error) {
      return { reachable: false, error };
    }
  };
}
