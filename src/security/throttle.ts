import type { Clock } from "../clock.js";
import type { DbOrTx } from "../storage/database.js";
import { PreparedQuery } from "../storage/prepared.js";

/**
 * Failed-attempt throttling in the database (table `throttle`), so the count holds across nodes.
 * After n recent failures in a bucket the next attempt waits baseDelayMs · 2^(n-1), capped at
 * maxDelayMs; failures older than `forgetAfterSeconds` no longer count; a success resets the bucket.
 * The hard ceiling: from `lockoutAfterFailures` failures on, attempts are refused outright (HTTP 429
 * with Retry-After) until `lockoutSeconds` after the last failure, so parallel requests, which
 * each wait their delay at the same time, cannot outrun the delay.
 */
export interface ThrottlePolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterSeconds: number;
  lockoutAfterFailures: number;
  lockoutSeconds: number;
}

/** The login form and HTTP Basic, per IP and per user: 25 s per attempt from the 8th failure, locked from the 30th. */
export const LOGIN_THROTTLE: ThrottlePolicy = {
  baseDelayMs: 200,
  maxDelayMs: 25_000,
  forgetAfterSeconds: 12 * 3600,
  lockoutAfterFailures: 30,
  lockoutSeconds: 300,
};

/**
 * The OAuth token, revocation and introspection endpoints, per IP, counting what guessing produces
 * (unknown client, wrong secret, unknown code or refresh token). Gentler than login: the values
 * guessed are 64 random characters, and many desktop clients behind one NAT presenting refresh
 * tokens an administrator revoked must not lock each other out (the desktop client times out at 30 s).
 */
export const TOKEN_THROTTLE: ThrottlePolicy = {
  baseDelayMs: 100,
  maxDelayMs: 10_000,
  forgetAfterSeconds: 3600,
  lockoutAfterFailures: 100,
  lockoutSeconds: 300,
};

/** Either wait this long before handling the attempt, or refuse it (429) for this many seconds. */
export type ThrottleVerdict =
  | {
      delayMs: number;
      retryAfterSeconds?: undefined /** some bucket has live failures (a success must reset) */;
      failuresOnRecord: boolean;
    }
  | { retryAfterSeconds: number };

export function delayForFailures(failures: number, policy: ThrottlePolicy): number {
  if (failures <= 0) return 0;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(failures - 1, 30));
}

type BucketParams = Record<string, string | number>;
type BucketRow = { failures: number; last_failure_at: number };

export class Throttle {
  /**
   * The check runs before every token request and every Basic login, so its statement is compiled
   * once per number of buckets (1 for the token endpoints, 2 for login: see PreparedQuery).
   */
  private readonly checkByArity = new Map<number, PreparedQuery<BucketParams, BucketRow>>();

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    private readonly policy: ThrottlePolicy,
  ) {}

  private checkStatement(arity: number): PreparedQuery<BucketParams, BucketRow> {
    let statement = this.checkByArity.get(arity);
    if (!statement) {
      statement = new PreparedQuery<BucketParams, BucketRow>((slot) =>
        this.db
          .selectFrom("throttle")
          .select(["failures", "last_failure_at"])
          .where(
            "bucket",
            "in",
            Array.from({ length: arity }, (_, i) => slot(`bucket${i}`) as string),
          )
          .where("last_failure_at", ">", slot("since") as number),
      );
      this.checkByArity.set(arity, statement);
    }
    return statement;
  }

  /** The delay owed before the next attempt in any of these buckets (the largest of them). */
  async delayMs(buckets: string[]): Promise<number> {
    const verdict = await this.check(buckets);
    return verdict.retryAfterSeconds === undefined ? verdict.delayMs : this.policy.maxDelayMs;
  }

  /** The verdict for the next attempt: the largest delay of the buckets, or a lockout past the ceiling. */
  async check(buckets: string[]): Promise<ThrottleVerdict> {
    if (buckets.length === 0) return { delayMs: 0, failuresOnRecord: false };
    const now = this.clock.nowSeconds();
    const since = now - this.policy.forgetAfterSeconds;
    const params: BucketParams = { since };
    buckets.forEach((bucket, i) => {
      params[`bucket${i}`] = bucket;
    });
    const { rows } = await this.checkStatement(buckets.length).execute(this.db, params);
    let retryAfterSeconds = 0;
    for (const row of rows) {
      if (row.failures < this.policy.lockoutAfterFailures) continue;
      retryAfterSeconds = Math.max(retryAfterSeconds, row.last_failure_at + this.policy.lockoutSeconds - now);
    }
    if (retryAfterSeconds > 0) return { retryAfterSeconds };
    return {
      delayMs: Math.max(0, ...rows.map((r) => delayForFailures(r.failures, this.policy))),
      failuresOnRecord: rows.length > 0,
    };
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
