import type { Logger } from "pino";
import { AuditLog } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import type { HostSettings } from "../config/host-settings.js";
import { keyFileSecretBox, type SecretSealer } from "../crypto/secret-box.js";
import { keyFileSigner, type ValueSigner } from "../crypto/value-signer.js";
import { type Job, JobScheduler } from "../jobs/scheduler.js";
import type { Metrics } from "../observability/metrics.js";
import { isDatabaseUnavailable } from "../storage/driver/availability.js";
import type { Storage } from "../storage/driver/connect.js";
import type { Db } from "../storage/driver/database.js";
import { SqlAuditStore } from "../storage/stores/audit/audit-store.js";
import { SqlJobLeaseStore } from "../storage/stores/jobs/job-lease-store.js";

/** What every module may be built on: the storage, the settings, the clock, the log, the audit log, the key file. */
export interface Foundation {
  storage: Storage;
  db: Db;
  clock: Clock;
  settings: HostSettings;
  log: Logger;
  audit: AuditLog;
  /** The client-secret key file's box: seals every secret kept at rest (docs/decisions.md). */
  sealer: SecretSealer;
  /** A signer with a key derived from the same key file for `purpose`. */
  signer(purpose: string): ValueSigner;
}

/**
 * What a module gives the composition root (src/services.ts): its services, under the names the
 * HTTP layer and the CLI read them by, and its background jobs for the scheduler.
 */
export interface Module<S> {
  services: S;
  jobs: Job[];
}

/** The one key file that seals every secret kept at rest and derives every signing key (docs/decisions.md). */
export const CLIENT_SECRET_KEY_FILE = "oauth2-client-secrets.key";

/** The foundation on `storage`: the audit log on it (events appended in batches off the request's path, audit/recorder.ts), the key file in `dataDir`. */
export function createFoundation(
  storage: Storage,
  dataDir: string,
  { clock, settings, log }: Pick<Foundation, "clock" | "settings" | "log">,
): Foundation {
  return {
    storage,
    db: storage.db,
    clock,
    settings,
    log,
    audit: new AuditLog(new SqlAuditStore(storage.db, storage.dialect), clock, log),
    sealer: keyFileSecretBox(dataDir, CLIENT_SECRET_KEY_FILE),
    signer: (purpose) => keyFileSigner(dataDir, CLIENT_SECRET_KEY_FILE, purpose),
  };
}

/** The scheduler of every module's jobs, one lease per job in the database; each run counted in `metrics`. */
export function wireJobs(
  { storage, clock, log }: Pick<Foundation, "storage" | "clock" | "log">,
  metrics: Metrics,
  jobs: Job[],
): JobScheduler {
  const outages = {
    isUnavailable: isDatabaseUnavailable,
    failed: (error: unknown, context: string) => storage.availability.failed(error, context),
  };
  const scheduler = new JobScheduler(new SqlJobLeaseStore(storage.db), clock, log, undefined, outages, (job, outcome, ms) =>
    metrics.jobRan(job, outcome, ms),
  );
  for (const job of jobs) scheduler.register(job);
  return scheduler;
}
