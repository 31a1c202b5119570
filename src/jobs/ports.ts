/** The lease a node takes before it runs a job, so that a job runs on one node at a time. */
export interface LeaseRequest {
  /** The job's name: one lease per name. */
  job: string;
  /** Who takes it (node and process): only this holder can give it back. */
  holder: string;
  now: number;
  /** Until when the lease holds if the holder never gives it back (a node that died mid-run). */
  leaseUntil: number;
  /** The job is due only when it last ran at or before this time, or never ran. */
  lastRunAtMost: number;
}

/** Job leases (table job_leases), one row per job, shared by every node. */
export interface JobLeaseStore {
  /**
   * Takes the job's lease for `holder` when nobody holds it (its lease ended at or before `now`)
   * and the job is due; creates the job's row at its first use. True when this call took it. The
   * take is one conditional UPDATE, so of two nodes asking at once at most one wins.
   */
  acquire(request: LeaseRequest): Promise<boolean>;
  /**
   * Gives the lease back and records `lastRunAt` as the job's last run, only when `holder` still
   * holds it; a lease another node took since changes nothing.
   */
  release(job: string, holder: string, lastRunAt: number): Promise<void>;
}

/**
 * What the scheduler knows of database outages (the composition root passes the storage's): which
 * errors mean "the database is unavailable", and where such an error is reported, so an outage
 * is logged once (not a stack trace per job run).
 */
export interface DatabaseOutages {
  isUnavailable(error: unknown): boolean;
  failed(error: unknown, context: string): void;
}
