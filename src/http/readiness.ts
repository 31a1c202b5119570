import type { HostSettings } from "../config/host-settings.js";
import { isDatabaseUnavailable, unavailableReason } from "../storage/driver/availability.js";
import type { Storage } from "../storage/driver/connect.js";
import { type DatabaseReadiness, databaseReadinessProbe } from "../storage/lifecycle/readiness.js";

/** A readiness probe waits at most this long for the database (Kubernetes' default probe timeout is 1 s). */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

/** One check, in the shape Keycloak's (MicroProfile Health) /health/ready uses. */
export interface HealthCheck {
  name: "database" | "migrations" | "settings" | "maintenance";
  status: "UP" | "DOWN";
  /** Why it is down (never a password or a stack: a code, a migration name, the settings error). */
  reason?: string;
}

export interface Readiness {
  status: "UP" | "DOWN";
  checks: HealthCheck[];
}

/**
 * Ready means this node can serve: the database answers and no outage is going on
 * (storage/driver/availability.ts), its migrations are all applied, config.json was read fine
 * (HostSettings.problem()), and maintenance mode is off (every page answers 503 then). Live is
 * simpler: the process answers at all (http/routes/health.ts).
 */
export function readinessChecker(storage: Storage, settings: HostSettings): () => Promise<Readiness> {
  const probe = databaseReadinessProbe(storage);
  return async () => {
    const database = await withTimeout(probe(), DATABASE_CHECK_TIMEOUT_MS);
    const checks: HealthCheck[] = [databaseCheck(storage, database), migrationsCheck(database)];
    const problem = settings.problem();
    checks.push(
      problem === undefined ? { name: "settings", status: "UP" } : { name: "settings", status: "DOWN", reason: problem },
    );
    if (problem === undefined) {
      checks.push(
        settings.get("maintenance")
          ? { name: "maintenance", status: "DOWN", reason: "maintenance mode is on" }
          : { name: "maintenance", status: "UP" },
      );
    }
    return { status: checks.every((check) => check.status === "UP") ? "UP" : "DOWN", checks };
  };
}

function databaseCheck(storage: Storage, database: DatabaseReadiness | "timeout"): HealthCheck {
  if (database === "timeout") return { name: "database", status: "DOWN", reason: "no answer in time" };
  if (!database.reachable) {
    if (isDatabaseUnavailable(database.error)) storage.availability.failed(database.error, "readiness");
    return { name: "database", status: "DOWN", reason: unavailableReason(database.error) };
  }
  // It answered a select, but requests still meet the fault (a full disk refuses writes).
  if (storage.availability.unavailable) return { name: "database", status: "DOWN", reason: "outage in progress" };
  return { name: "database", status: "UP" };
}

function migrationsCheck(database: DatabaseReadiness | "timeout"): HealthCheck {
  if (database === "timeout" || !database.reachable)
    return { name: "migrations", status: "DOWN", reason: "database unavailable" };
  if (database.pending.length > 0) {
    return { name: "migrations", status: "DOWN", reason: `pending: ${database.pending.join(", ")} (run ./occ migrate)` };
  }
  return { name: "migrations", status: "UP" };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
