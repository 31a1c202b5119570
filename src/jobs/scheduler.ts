import { hostname } from "node:os";
import type { Clock } from "../clock.js";
import { randomToken } from "../crypto/secrets.js";
import type { DatabaseOutages, JobLeaseStore } from "./ports.js";

export interface Job {
  name: string;
  /** How often the job is due, in seconds (counted from its last run on any node). */
  intervalSeconds: () => number;
  run(): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Told of every job run on this node, with its outcome and duration (the server's metrics count them). */
export type JobRunObserver = (job: string, outcome: "success" | "failure", milliseconds: number) => void;

/**
 * Background jobs (daily cleanups) that run on one node at a time. A lease row per job in the
 * database decides: a node takes the lease only when the job is due and nobody holds it, with a
 * single conditional UPDATE, so two nodes can never both win.
 */
export class JobScheduler {
  private readonly jobs: Job[] = [];
  private readonly holder = `${hostname()}:${process.pid}:${randomToken(6)}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly leases: JobLeaseStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly leaseSeconds = 600,
    private readonly outages?: DatabaseOutages,
    private readonly onRun?: JobRunObserver,
  ) {}

  register(job: Job): void {
    this.jobs.push(job);
  }

  start(tickMs = 60_000): void {
    const tick = () => {
      // A tick that fails (the database away while taking or giving back a lease) is reported and
      // retried at the next tick; the process carries on.
      this.running ??= this.runDueJobs()
        .then(
          () => undefined,
          (error: unknown) => this.reportFailure(error, "background jobs"),
        )
        .finally(() => {
          this.running = undefined;
        });
    };
    this.timer = setInterval(tick, tickMs);
    this.timer.unref();
    setTimeout(tick, 1000).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs every job that is due and whose lease this node wins; returns the names it ran. */
  async runDueJobs(): Promise<string[]> {
    const ran: string[] = [];
    for (const job of this.jobs) {
      if (!(await this.tryAcquire(job))) continue;
      const started = performance.now();
      try {
        await job.run();
        ran.push(job.name);
        this.onRun?.(job.name, "success", performance.now() - started);
        this.log.info({ job: job.name }, "background job finished");
      } catch (error) {
        this.onRun?.(job.name, "failure", performance.now() - started);
        this.reportFailure(error, job.name);
      } finally {
        await this.release(job);
      }
    }
    return ran;
  }

  private reportFailure(error: unknown, job: string): void {
    if (this.outages?.isUnavailable(error)) this.outages.failed(error, `job ${job}`);
    else this.log.error({ job, err: error }, "background job failed");
  }

  private tryAcquire(job: Job): Promise<boolean> {
    const now = this.clock.nowSeconds();
    return this.leases.acquire({
      job: job.name,
      holder: this.holder,
      now,
      leaseUntil: now + this.leaseSeconds,
      lastRunAtMost: now - job.intervalSeconds(),
    });
  }

  private release(job: Job): Promise<void> {
    return this.leases.release(job.name, this.holder, this.clock.nowSeconds());
  }
}
