import { setTimeout as sleep } from "node:timers/promises";
import { type AvailabilityLog, isDatabaseUnavailable, unavailableReason } from "../driver/availability.js";
import type { Storage } from "../driver/connect.js";
import { DatabaseNewerThanRelease, type MigrationReport, migrateToLatest } from "./migrate.js";

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5000;

export interface StartupOptions {
  /** Give up when the database has not answered for this long (ms). */
  timeoutMs?: number | undefined;
  log: AvailabilityLog;
  /** A check before migrating (stranded-sqlite.ts), retried like the migration while the database is unavailable. */
  beforeMigrate?: () => Promise<void>;
}

/**
 * The server's first contact with the database: migrate, and while the database is
 * unavailable (still starting, unreachable, hung: each attempt is bounded by the connect timeout)
 * retry with a warning per attempt, backing off from 250 ms to 5 s, until `timeoutMs`. Then, or at
 * once for any other error (a wrong password, a failed migration), throw an error naming the
 * database (Storage.describe: never its password).
 */
export async function migrateWhenAvailable(storage: Storage, options: StartupOptions): Promise<MigrationReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  const started = Date.now();
  let retryMs = FIRST_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    let checked = options.beforeMigrate === undefined;
    try {
      await options.beforeMigrate?.();
      checked = true;
      return await migrateToLatest(storage);
    } catch (error) {
      // Said in full by the error itself, once: what was found and what to do.
      if (error instanceof DatabaseNewerThanRelease) throw error;
      if (!isDatabaseUnavailable(error)) {
        // The check's refusal is its own sentence, naming the database already.
        if (!checked) throw error;
        throw new Error(`database ${storage.describe}: ${messageOf(error)}`, { cause: error });
      }
      const elapsedMs = Date.now() - started;
      if (elapsedMs + retryMs > timeoutMs) {
        throw new Error(
          `database ${storage.describe} unavailable: gave up after ${Math.round(elapsedMs / 1000)} s and ${attempt} attempts ` +
            `(${unavailableReason(error)}: ${messageOf(error)}); check that it runs and is reachable, ` +
            "or raise KEYSTREAM_DB_STARTUP_TIMEOUT_MS",
          { cause: error },
        );
      }
      options.log.warn(
        {
          event: "database_unavailable_at_start",
          database: storage.describe,
          reason: unavailableReason(error),
          attempt,
          retryInMs: retryMs,
        },
        "database not available yet: retrying",
      );
      await sleep(retryMs);
      retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
    }
  }
}

/** The innermost message (a DatabaseUnavailableError's cause says what really happened). */
function messageOf(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
