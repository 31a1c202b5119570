import type { JobLeaseStore, LeaseRequest } from "../../../jobs/ports.js";
import type { Db } from "../../driver/database.js";

/** Job leases (table job_leases): one row per job, taken and given back by conditional UPDATEs. */
export class SqlJobLeaseStore implements JobLeaseStore {
  constructor(private readonly db: Db) {}

  async acquire(request: LeaseRequest): Promise<boolean> {
    await this.db
      .insertInto("job_leases")
      .values({ name: request.job, holder: "", lease_until: 0, last_run_at: null })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const result = await this.db
      .updateTable("job_leases")
      .set({ holder: request.holder, lease_until: request.leaseUntil })
      .where("name", "=", request.job)
      .where("lease_until", "<=", request.now)
      .where((eb) => eb.or([eb("last_run_at", "is", null), eb("last_run_at", "<=", request.lastRunAtMost)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(job: string, holder: string, lastRunAt: number): Promise<void> {
    await this.db
      .updateTable("job_leases")
      .set({ lease_until: 0, last_run_at: lastRunAt })
      .where("name", "=", job)
      .where("holder", "=", holder)
      .execute();
  }
}
