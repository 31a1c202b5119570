import type { Clock } from "../clock.js";
import {
  type BucketState,
  bucketState,
  delayForFailures,
  liveCounts,
  lockoutSecondsLeft,
  type ThrottleBucket,
  type ThrottlePolicy,
} from "./domain/throttle-policy.js";
import type { PendingSettlement, ReservedCounts, Settlement, ThrottleStore } from "./ports.js";

/** Either the attempt may go ahead after `delayMs`, or it is refused (429) for `retryAfterSeconds`. */
export type Reservation = { admitted: true; delayMs: number } | { admitted: false; retryAfterSeconds: number };

/**
 * How a checked attempt ends: `failure` counts (wrong credentials); `success` resets the `reset`
 * buckets' failures; `uncounted` only gives the reservation back (the answer says nothing about
 * the credentials: malformed request, disabled account, an error).
 */
export type AttemptOutcome = { kind: "failure" } | { kind: "success"; reset: ThrottleBucket[] } | { kind: "uncounted" };

/**
 * A reservation in one bucket made together with a read (the token endpoint's client and code in
 * the reservation's own statement): the bucket's counts (undefined: refused, nothing read) and what
 * was read.
 */
export type ReserveWithRead<R> = (
  bucket: ThrottleBucket,
  now: number,
) => Promise<{ counts: ReservedCounts | undefined; read: R }>;

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
      delayMs = Math.max(delayMs, delayForFailures(positionOf(bucket, counts), this.policy));
    }
    return { admitted: true, delayMs };
  }

  /**
   * reserve() for an attempt in one bucket whose store reads what the attempt needs with the
   * reservation (`reserveWithRead`); with several buckets, reserve() and nothing read. A refused
   * attempt reads nothing.
   */
  async reserveWithRead<R>(
    buckets: ThrottleBucket[],
    reserveWithRead: ReserveWithRead<R>,
  ): Promise<{ reservation: Reservation; read: R | undefined }> {
    const [bucket, ...more] = buckets;
    if (!bucket || more.length > 0) return { reservation: await this.reserve(buckets), read: undefined };
    const now = this.clock.nowSeconds();
    const { counts, read } = await reserveWithRead(bucket, now);
    if (counts === undefined) {
      return { reservation: { admitted: false, retryAfterSeconds: await this.retryAfterSeconds(bucket, now) }, read: undefined };
    }
    return { reservation: { admitted: true, delayMs: delayForFailures(positionOf(bucket, counts), this.policy) }, read };
  }

  /** Ends an admitted attempt's reservation in every bucket it reserved (see AttemptOutcome). */
  settle(buckets: ThrottleBucket[], outcome: AttemptOutcome): Promise<void> {
    const pending = this.settlementOf(buckets, outcome);
    return this.store.settle(pending.keys, pending.settlement, pending.now);
  }

  /** The settlement of an attempt as `outcome`, as a value another write can commit with itself. */
  settlementOf(buckets: ThrottleBucket[], outcome: AttemptOutcome): PendingSettlement {
    return {
      keys: orderedBuckets(buckets).map((bucket) => bucket.key),
      settlement: settlementFor(outcome),
      now: this.clock.nowSeconds(),
    };
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

  /**
   * What to put in Retry-After for a refused attempt: the rest of the lockout when the ceiling
   * refused it, the capped delay when an attempt in flight did (it is decided by then); at least 1 s.
   */
  private async retryAfterSeconds(bucket: ThrottleBucket, now: number): Promise<number> {
    const row = await this.store.row(bucket.key);
    if (!row) return 1;
    const live = liveCounts(row, this.policy, now);
    let seconds = Math.max(1, lockoutSecondsLeft(live, row.lastFailureAt, this.policy, now));
    if (live.inFlight > 0) seconds = Math.max(seconds, Math.ceil(this.policy.maxDelayMs / 1000));
    return seconds;
  }
}

function settlementFor(outcome: AttemptOutcome): Settlement {
  if (outcome.kind === "failure") return { kind: "failure" };
  if (outcome.kind === "success") return { kind: "success", resetKeys: outcome.reset.map((bucket) => bucket.key) };
  return { kind: "release" };
}

/** The attempt's position in the bucket (what its delay is computed from), from its reservation's counts. */
function positionOf(bucket: ThrottleBucket, counts: ReservedCounts): number {
  const inFlightBefore = counts.inFlight - 1;
  return counts.failures + (!bucket.shared || counts.failures > 0 ? inFlightBefore : 0);
}

/** Each bucket once, in key order (the order rows are locked in). */
function orderedBuckets(buckets: ThrottleBucket[]): ThrottleBucket[] {
  const byKey = new Map(buckets.map((bucket) => [bucket.key, bucket]));
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
