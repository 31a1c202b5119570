import type { BucketCounts, ThrottleBucket } from "./domain/throttle-policy.js";

/** A bucket's live counts right after an attempt was reserved in it, that attempt included. */
export interface ReservedCounts {
  /** Failures within the policy's `forgetAfterSeconds` (older ones no longer count). */
  failures: number;
  /** Attempts in flight, this one included (reservations older than the in-flight limit no longer count). */
  inFlight: number;
}

/** A bucket's row as stored, for the Retry-After of a refused attempt and an administrator's view. */
export type BucketRow = BucketCounts;

/**
 * How an admitted attempt's reservation ends: `failure` counts one more failure; `success` ends
 * every attempt in flight in the buckets and clears the failures of the `resetKeys` among them;
 * `release` only gives the reservation back.
 */
export type Settlement = { kind: "failure" } | { kind: "success"; resetKeys: string[] } | { kind: "release" };

/**
 * The throttle's table, one row per bucket. A store serves one policy (security/domain/
 * throttle-policy.ts): the policy's ceiling and lockout are part of its reservation statement.
 */
export interface ThrottleStore {
  /**
   * Reserves one attempt in the bucket, atomically: concurrent reservations are serialised on the
   * bucket's row (a row lock on PostgreSQL, the single writer on SQLite), so each sees the ones
   * before it. Returns the counts with this attempt included; undefined when the policy refuses it
   * (the lockout ceiling, or the capped delay's pace while another attempt is in flight), and then
   * nothing is written. Committed before the caller checks anything.
   */
  reserve(bucket: ThrottleBucket, now: number): Promise<ReservedCounts | undefined>;
  /** Ends one reservation in each bucket of `keys` as `settlement` (an upsert for a failure: a purged row comes back). */
  settle(keys: string[], settlement: Settlement, now: number): Promise<void>;
  /** The bucket's row; undefined when there is none. */
  row(key: string): Promise<BucketRow | undefined>;
  /**
   * Deletes the bucket's row, its failures and reservations with it (an administrator lifting the
   * throttle); returns whether there was one. An attempt still in flight then settles on no row: a
   * failure writes a new row with that one failure, anything else changes nothing.
   */
  forget(key: string): Promise<boolean>;
  /**
   * This policy's client-address buckets (keys `<namespace>:ip:…`) whose failures still count
   * (within `forgetAfterSeconds` of `now`), the latest failure first, at most `limit`.
   */
  failingAddressRows(now: number, limit: number): Promise<Array<{ key: string; row: BucketRow }>>;
  /**
   * Deletes this policy's rows that hold nothing: no failure within `forgetAfterSeconds` (or none)
   * and no reservation that still counts. Returns how many were deleted.
   */
  purgeStale(now: number): Promise<number>;
}
