import type { Clock } from "../clock.js";
import {
  type BucketState,
  bucketState,
  orderedBuckets,
  reservationDelayMs,
  retryAfterSeconds,
  type ThrottleBucket,
  type ThrottlePolicy,
} from "./domain/throttle-policy.js";
import type { Settlement, ThrottleStore } from "./ports.js";

/** Either the attempt may go ahead after `delayMs`, or it is refused (429) for `retryAfterSeconds`. */
export type Reservation = { admitted: true; delayMs: number } | { admitted: false; retryAfterSeconds: number };

/**
 * How a checked attempt ends: `failure` counts (wrong credentials); `success` resets the `reset`
 * buckets' failures; `uncounted` only gives the reservation back (the answer says nothing about
 * the credentials: malformed request, disabled account, an error).
 */
export type AttemptOutcome = { kind: "failure" } | { kind: "success"; reset: ThrottleBucket[] } | { kind: "uncounted" };

/**
 * Failed-attempt throttling with one policy over its store (security/domain/throttle-policy.ts
 * states the rules): every attempt is reserved before its credentials are checked, waits the delay
 * its position owes or is refused, and is settled with its outcome.
 */
export class Throttle {
  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
    readonly policy: ThrottlePolicy,
  ) {}

  /**
   * Reserves one attempt in every bucket, in a fixed order (two PostgreSQL transactions lock the
   * rows in the same order). The buckets reserved before a refused one are given back.
   */
  async reserve(buckets: ThrottleBucket[]): Promise<Reservation> {
    const now = this.clock.nowSeconds();
    const reserved: ThrottleBucket[] = [];
    let delayMs = 0;
    for (const bucket of orderedBuckets(buckets)) {
      const counts = await this.store.reserve(bucket, now);
      if (counts === undefined) {
        if (reserved.length > 0) await this.settle(reserved, { kind: "uncounted" });
        return { admitted: false, retryAfterSeconds: await this.retryAfterSeconds(bucket, now) };
      }
      reserved.push(bucket);
      delayMs = Math.max(delayMs, reservationDelayMs(bucket, counts, this.policy));
    }
    return { admitted: true, delayMs };
  }

  /** Ends an admitted attempt's reservation in every bucket it reserved (see AttemptOutcome). */
  settle(buckets: ThrottleBucket[], outcome: AttemptOutcome): Promise<void> {
    return this.store.settle(
      orderedBuckets(buckets).map((bucket) => bucket.key),
      settlementFor(outcome),
      this.clock.nowSeconds(),
    );
  }

  /** What the bucket's next attempt meets now (`./occ security:bruteforce:attempts`). */
  async state(bucket: ThrottleBucket): Promise<BucketState> {
    return bucketState(await this.store.row(bucket.key), bucket, this.policy, this.clock.nowSeconds());
  }

  /** The client-address buckets whose failures still count, the latest failure first, at most `limit`. */
  async failingAddresses(limit: number): Promise<Array<{ bucket: ThrottleBucket; state: BucketState; lastFailureAt: number }>> {
    const now = this.clock.nowSeconds();
    return (await this.store.failingAddressRows(now, limit)).map(({ key, row }) => {
      const bucket: ThrottleBucket = { key, shared: true };
      return { bucket, state: bucketState(row, bucket, this.policy, now), lastFailureAt: row.lastFailureAt };
    });
  }

  /**
   * Forgets the bucket, failures and reservations (`./occ security:bruteforce:reset`); returns
   * what it counted just before.
   */
  async forget(bucket: ThrottleBucket): Promise<BucketState> {
    const before = await this.state(bucket);
    await this.store.forget(bucket.key);
    return before;
  }

  /** Deletes this policy's rows that no longer hold anything. Run by a background job. */
  purgeStale(): Promise<number> {
    return this.store.purgeStale(this.clock.nowSeconds());
  }

  private async retryAfterSeconds(bucket: ThrottleBucket, now: number): Promise<number> {
    return retryAfterSeconds(await this.store.row(bucket.key), this.policy, now);
  }
}

function settlementFor(outcome: AttemptOutcome): Settlement {
  if (outcome.kind === "failure") return { kind: "failure" };
  if (outcome.kind === "success") return { kind: "success", resetKeys: outcome.reset.map((bucket) => bucket.key) };
  return { kind: "release" };
}
