import assert from "node:assert/strict";
import type { LeaseRequest } from "../../src/jobs/ports.js";
import type { Contract } from "./harness.js";

const request = (job: string, holder: string, now: number, lastRunAtMost = now): LeaseRequest => ({
  job,
  holder,
  now,
  leaseUntil: now + 60,
  lastRunAtMost,
});

/** jobs/ports.ts JobLeaseStore, case by case. */
export const jobLeaseStoreContract: Contract = {
  "a job never run is due: its first acquire takes the lease; of two nodes asking at once exactly one wins": async (s) => {
    const job = s.unique("job-");
    const results = await Promise.all([
      s.jobLeases.acquire(request(job, "node-a", 100)),
      s.jobLeases.acquire(request(job, "node-b", 100)),
    ]);
    assert.deepEqual([...results].sort(), [false, true]);
  },

  "a held lease is refused until it ends, then a node that died mid-run is taken over": async (s) => {
    const job = s.unique("job-");
    assert.equal(await s.jobLeases.acquire(request(job, "node-a", 100)), true);
    assert.equal(await s.jobLeases.acquire(request(job, "node-b", 159)), false, "held until 160");
    assert.equal(await s.jobLeases.acquire(request(job, "node-b", 160)), true, "ended at 160");
  },

  "a released lease records the run: the job is due again only once its last run is old enough": async (s) => {
    const job = s.unique("job-");
    await s.jobLeases.acquire(request(job, "node-a", 100));
    await s.jobLeases.release(job, "node-a", 110);
    assert.equal(await s.jobLeases.acquire(request(job, "node-b", 120, 109)), false, "ran at 110, due after");
    assert.equal(await s.jobLeases.acquire(request(job, "node-b", 120, 110)), true);
  },

  "only the holder gives the lease back; another node's release changes nothing": async (s) => {
    const job = s.unique("job-");
    await s.jobLeases.acquire(request(job, "node-a", 100));
    await s.jobLeases.release(job, "node-b", 105);
    assert.equal(await s.jobLeases.acquire(request(job, "node-c", 120)), false, "still node-a's");
    await s.jobLeases.release(job, "node-a", 121);
    assert.equal(await s.jobLeases.acquire(request(job, "node-c", 130, 121)), true);
  },
};
