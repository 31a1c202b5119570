import type { Clock } from "../clock.js";
import type { DbOrTx } from "../storage/database.js";

/**
 * Failed-attempt throttling in the database, so the count holds across nodes.
 * After n recent failures in a bucket the next attempt waits baseDelayMs · 2^(n-1), capped at
 * maxDelayMs; failures older than `forgetAfterSeconds` no longer count; a success resets the bucket.
 */
export interface ThrottlePolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterSeconds: number;
}

export const LOGIN_THROTTLE: ThrottlePolicy = { baseDelayMs: 200, maxDelayMs: 25_000, forgetAfterSeconds: 12 * 3600 };

export function delayForFailures(failures: number, policy: ThrottlePolicy): number {
  if (failures <= 0) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(failures - 1, 30));
}

export class Throttle {
  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    private readonly policy: ThrottlePolicy,
  ) {}

  /** The delay owed before the next attempt in any of these buckets (the largest of them). */
  async delayMs(buckets: string[]): Promise<number> {
    if (buckets.length === 0) return 0;
    const since = this.clock.nowSeconds() - this.policy.forgetAfterSeconds;
    const rows = await this.db
      .selectFrom("throttle")
      .select(["failures"])
      .where("bucket", "in", buckets)
      .where("last_failure_at", ">", since)
      .execute();
    return Math.max(0, ...rows.map((r) => delayForFailures(r.failures, this.policy)));
  }

  /** Counts one failure in each bucket (an upsert: atomic on both dialects). */
  async recordFailure(buckets: string[]): Promise<void> {
    const now = this.clock.nowSeconds();
    const stale = now - this.policy.forgetAfterSeconds;
    for (const bucket of buckets) {
      await this.db
        .insertInto("throttle")
        .values({ bucket, failures: 1, last_failure_at: now })
        .onConflict((oc) =>
          oc.column("bucket").doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when("throttle.last_failure_at", "<=", stale)
              .then(1)
              .else(eb("throttle.failures", "+", 1))
              .end(),
            last_failure_at: now,
          })),
        )
        .execute();
    }
  }

  async reset(buckets: string[]): Promise<void> {
    if (buckets.length === 0) return;
    await this.db.deleteFrom("throttle").where("bucket", "in", buckets).execute();
  }
}
