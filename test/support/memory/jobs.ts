import type { JobLeaseStore, LeaseRequest } from "../../../src/jobs/ports.js";

/** jobs/ports.ts JobLeaseStore in memory (src/storage/stores/jobs/job-lease-store.ts is the SQL one). */
export class MemoryJobLeaseStore implements JobLeaseStore {
  private readonly leases = new Map<string, { holder: string; leaseUntil: number; lastRunAt: number | null }>();

  async acquire(request: LeaseRequest): Promise<boolean> {
    const lease = this.leases.get(request.job) ?? { holder: "", leaseUntil: 0, lastRunAt: null };
    this.leases.set(request.job, lease);
    const free = lease.leaseUntil <= request.now;
    const due = lease.lastRunAt === null || lease.lastRunAt <= request.lastRunAtMost;
    if (!free || !due) return false;
    this.leases.set(request.job, { ...lease, holder: request.holder, leaseUntil: request.leaseUntil });
    return true;
  }

  async release(job: string, holder: string, lastRunAt: number): Promise<void> {
    const lease = this.leases.get(job);
    if (lease?.holder === holder) this.leases.set(job, { holder, leaseUntil: 0, lastRunAt });
  }
}
