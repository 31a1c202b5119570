import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../../../src/clock.js";
import { JobScheduler } from "../../../src/jobs/scheduler.js";
import { MemoryJobLeaseStore } from "../../support/memory/jobs.js";

function recordingLog() {
  const lines: string[] = [];
  return {
    lines,
    info: (obj: object) => void lines.push(`info ${JSON.stringify(obj)}`),
    error: (obj: object) => void lines.push(`error ${(obj as { job: string }).job}`),
  };
}

describe("jobs: the rules of the scheduler, on a memory lease store", () => {
  it("a job runs when due, then not again until its interval has passed since that run", async () => {
    const clock = new ManualClock(1_800_000_000);
    const scheduler = new JobScheduler(new MemoryJobLeaseStore(), clock, recordingLog());
    let runs = 0;
    scheduler.register({ name: "cleanup", intervalSeconds: () => 3600, run: async () => void runs++ });
    assert.deepEqual(await scheduler.runDueJobs(), ["cleanup"]);
    clock.advance(3599);
    assert.deepEqual(await scheduler.runDueJobs(), []);
    clock.advance(1);
    assert.deepEqual(await scheduler.runDueJobs(), ["cleanup"]);
    assert.equal(runs, 2);
  });

  it("of two nodes sharing the leases, one runs a due job and the other does not", async () => {
    const clock = new ManualClock(1_800_000_000);
    const leases = new MemoryJobLeaseStore();
    const ran: string[] = [];
    const nodes = ["a", "b"].map((node) => {
      const scheduler = new JobScheduler(leases, clock, recordingLog());
      scheduler.register({ name: "cleanup", intervalSeconds: () => 60, run: async () => void ran.push(node) });
      return scheduler;
    });
    await Promise.all(nodes.map((n) => n.runDueJobs()));
    assert.equal(ran.length, 1);
  });

  it("a failing job is reported, its failure observed, its lease given back, and the next job still runs", async () => {
    const clock = new ManualClock(1_800_000_000);
    const log = recordingLog();
    const outcomes: string[] = [];
    const scheduler = new JobScheduler(new MemoryJobLeaseStore(), clock, log, 600, undefined, (job, outcome) =>
      outcomes.push(`${job} ${outcome}`),
    );
    scheduler.register({ name: "broken", intervalSeconds: () => 60, run: async () => Promise.reject(new Error("boom")) });
    scheduler.register({ name: "fine", intervalSeconds: () => 60, run: async () => {} });
    assert.deepEqual(await scheduler.runDueJobs(), ["fine"]);
    assert.deepEqual(outcomes, ["broken failure", "fine success"]);
    assert.ok(log.lines.includes("error broken"));
    clock.advance(60);
    assert.deepEqual(await scheduler.runDueJobs(), ["fine"], "the failed job's lease was released: it is due again");
    assert.deepEqual(outcomes.slice(2), ["broken failure", "fine success"]);
  });

  it("a failure that means the database is away goes to the outage report, not the error log", async () => {
    const log = recordingLog();
    const reported: string[] = [];
    const outages = { isUnavailable: () => true, failed: (_error: unknown, context: string) => void reported.push(context) };
    const scheduler = new JobScheduler(new MemoryJobLeaseStore(), new ManualClock(), log, 600, outages);
    scheduler.register({ name: "cleanup", intervalSeconds: () => 60, run: async () => Promise.reject(new Error("down")) });
    await scheduler.runDueJobs();
    assert.deepEqual(reported, ["job cleanup"]);
    assert.ok(!log.lines.some((line) => line.startsWith("error")));
  });
});
