import { type Compilable, type QueryCreator, sql } from "kysely";
import type { Clock } from "../clock.js";
import type { Database, DbOrTx } from "../storage/database.js";
import { PreparedQuery, type SlotFactory } from "../storage/prepared.js";
import {
  cappedPosition,
  delayForFailures,
  inFlightForgetSeconds,
  type ThrottleBucket,
  type ThrottlePolicy,
} from "./throttle-policy.js";

/** The policies and buckets (throttle-policy.ts), where every caller has always imported them from. */
export * from "./throttle-policy.js";

/** Either the attempt may go ahead after `delayMs`, or it is refused (429) for `retryAfterSeconds`. */
export type Reservation = { admitted: true; delayMs: number } | { admitted: false; retryAfterSeconds: number };

/**
 * How a checked attempt ends: `failure` counts (wrong credentials); `success` resets the `reset`
 * buckets' failures; `uncounted` only gives the reservation back (the answer says nothing about
 * the credentials: malformed request, disabled account, an error).
 */
export type AttemptOutcome = { kind: "failure" } | { kind: "success"; reset: ThrottleBucket[] } | { kind: "uncounted" };

/** A success that resets its bucket, on the bucket's row: no attempt in flight, no failure on record. */
export const SETTLED_AND_RESET = { in_flight: 0, failures: 0 } as const;

type Params = Record<string, string | number>;
/** Placeholders for a prepared statement's parameters, typed as the values they stand for. */
type Slots = { text(name: string): string; number(name: string): number };

export class Throttle {
  private readonly cappedPosition: number;
  private readonly inFlightForgetSeconds: number;
  /**
   * Every request with a throttled credential runs a reservation and a settlement, so each
   * statement is built and compiled once (PreparedQuery: named prepared statements on PostgreSQL)
   * per shape: per kind of bucket, per number of buckets and of buckets reset.
   */
  private readonly statements = new Map<string, PreparedQuery<Params, unknown>>();
  /** reserveWith()'s statements, per rider and kind of bucket. */
  private readonly riders = new Map<string, PreparedQuery<Params, ReservedRow>>();

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    readonly policy: ThrottlePolicy,
  ) {
    this.cappedPosition = cappedPosition(policy);
    this.inFlightForgetSeconds = inFlightForgetSeconds(policy);
  }

  /**
   * Reserves one attempt in every bucket: per bucket one upsert, in a fixed order (two PostgreSQL
   * transactions lock the rows in the same order). The row lock (PostgreSQL) or the single writer
   * (SQLite) serialises concurrent reservations, so each sees the ones before it. The conflict
   * branch's WHERE refuses the attempt, and then no row comes back; the buckets reserved before a
   * refused one are given back.
   */
  async reserve(buckets: ThrottleBucket[]): Promise<Reservation> {
    const ordered = orderedBuckets(buckets);
    const now = this.clock.nowSeconds();
    const reserved: ThrottleBucket[] = [];
    let delayMs = 0;
    for (const bucket of ordered) {
      const position = await this.reserveOne(bucket, now);
      if (position === undefined) {
        if (reserved.length > 0) await this.settle(reserved, { kind: "uncounted" });
        return { admitted: false, retryAfterSeconds: await this.retryAfterSeconds(bucket, now) };
      }
      reserved.push(bucket);
      delayMs = Math.max(delayMs, delayForFailures(position, this.policy));
    }
    return { admitted: true, delayMs };
  }

  /** The attempt's position in the bucket (what the delay is computed from), or undefined when refused. */
  private async reserveOne(bucket: ThrottleBucket, now: number): Promise<number | undefined> {
    const statement = this.prepared(`reserve:${bucket.shared}`, (slot) => this.reservation(this.db, bucket, slot));
    const row = (await statement.first(this.db, this.reservationParams(bucket, now))) as ReservedRow | undefined;
    return row && positionOf(bucket, row);
  }

  /**
   * Reserves one attempt in its only bucket with `rider`'s read in the same statement (issue 17):
   * the reservation as the CTE `reserved` (PostgreSQL's data-modifying CTEs; the statement commits
   * it before anything is checked, as reserve() does), the rider's query selecting from it, so a
   * refused attempt returns no row and its read is not looked at. Otherwise exactly reserve().
   */
  async reserveWith<R>(
    buckets: ThrottleBucket[],
    rider: ReservationRider<R>,
  ): Promise<{ reservation: Reservation; read: R | undefined }> {
    const [bucket, ...more] = buckets;
    if (!bucket || more.length > 0) return { reservation: await this.reserve(buckets), read: undefined };
    const now = this.clock.nowSeconds();
    let statement = this.riders.get(`${rider.key}:${bucket.shared}`);
    if (!statement) {
      statement = new PreparedQuery<Params, ReservedRow>((slot) =>
        rider.select(
          this.db.with("reserved", () => this.reservation(this.db, bucket, toSlots(slot))) as unknown as ReservedQueryCreator,
          (name) => slot(name) as string,
        ),
      );
      this.riders.set(`${rider.key}:${bucket.shared}`, statement);
    }
    const row = await statement.first(this.db, { ...this.reservationParams(bucket, now), ...rider.params });
    if (!row)
      return { reservation: { admitted: false, retryAfterSeconds: await this.retryAfterSeconds(bucket, now) }, read: undefined };
    return {
      reservation: { admitted: true, delayMs: delayForFailures(positionOf(bucket, row), this.policy) },
      read: rider.decode(row),
    };
  }

  private reservationParams(bucket: ThrottleBucket, now: number): Params {
    return {
      bucket: bucket.key,
      now,
      stale: now - this.policy.forgetAfterSeconds,
      abandoned: now - this.inFlightForgetSeconds,
      lockedSince: now - this.policy.lockoutSeconds,
    };
  }

  /**
   * One attempt reserved in `bucket`: an upsert returning the row's live failures and attempts in
   * flight (this one included), or no row when the conflict branch's WHERE refuses it.
   */
  private reservation(db: DbOrTx, bucket: ThrottleBucket, slot: Slots) {
    const { failures, inFlight } = liveCounts(slot);
    // Attempts in flight that add to the delay (see ThrottleBucket.shared); all of them add to the ceiling.
    const delaying = bucket.shared ? sql<number>`(case when ${failures} > 0 then ${inFlight} else 0 end)` : inFlight;
    return db
      .insertInto("throttle")
      .values({
        bucket: slot.text("bucket"),
        failures: 0,
        last_failure_at: 0,
        in_flight: 1,
        last_attempt_at: slot.number("now"),
      })
      .onConflict((oc) =>
        oc
          .column("bucket")
          .doUpdateSet({ failures, in_flight: sql<number>`${inFlight} + 1`, last_attempt_at: slot.number("now") })
          .where(
            sql<boolean>`not (
                (${failures} + ${inFlight} >= ${this.policy.lockoutAfterFailures}
                  and (${inFlight} > 0 or throttle.last_failure_at > ${slot.number("lockedSince")}))
                or (${failures} + ${delaying} >= ${this.cappedPosition} and ${delaying} > 0))`,
          ),
      )
      .returning(["failures", "in_flight"]);
  }

  /**
   * Ends an admitted attempt's reservation in every bucket it reserved (see AttemptOutcome); on
   * `db`, or inside the caller's transaction when given one (the token endpoint's, issue 17).
   */
  async settle(buckets: ThrottleBucket[], outcome: AttemptOutcome, db: DbOrTx = this.db): Promise<void> {
    const keys = orderedBuckets(buckets).map((bucket) => bucket.key);
    if (keys.length === 0) return;
    const now = this.clock.nowSeconds();
    const params: Params = { now, stale: now - this.policy.forgetAfterSeconds };
    keys.forEach((key, i) => {
      params[`bucket${i}`] = key;
    });
    const oneLess = sql<number>`case when throttle.in_flight > 0 then throttle.in_flight - 1 else 0 end`;
    if (outcome.kind === "failure") {
      // An upsert: the row is there (reserved) unless the purge took it after a very long attempt.
      const statement = this.prepared(`failure:${keys.length}`, (slot) =>
        this.db
          .insertInto("throttle")
          .values(
            keys.map((_, i) => ({
              bucket: slot.text(`bucket${i}`),
              failures: 1,
              last_failure_at: slot.number("now"),
              in_flight: 0,
              last_attempt_at: slot.number("now"),
            })),
          )
          .onConflict((oc) =>
            oc.column("bucket").doUpdateSet({
              failures: sql<number>`case when throttle.last_failure_at > ${slot.number("stale")} then throttle.failures + 1 else 1 end`,
              last_failure_at: slot.number("now"),
              in_flight: oneLess,
            }),
          ),
      );
      await statement.execute(db, params);
      return;
    }
    const inKeys = (slot: Slots) => keys.map((_, i) => slot.text(`bucket${i}`));
    if (outcome.kind === "success") {
      const resetKeys = new Set(outcome.reset.map((bucket) => bucket.key));
      const reset = keys.filter((key) => resetKeys.has(key));
      reset.forEach((key, i) => {
        params[`reset${i}`] = key;
      });
      const statement = this.prepared(`success:${keys.length}:${reset.length}`, (slot) =>
        this.db
          .updateTable("throttle")
          .set(
            reset.length === keys.length
              ? SETTLED_AND_RESET
              : {
                  in_flight: 0,
                  failures:
                    reset.length === 0
                      ? sql<number>`throttle.failures`
                      : sql<number>`case when throttle.bucket in (${sql.join(reset.map((_, i) => slot.text(`reset${i}`)))}) then 0 else throttle.failures end`,
                },
          )
          .where("bucket", "in", inKeys(slot)),
      );
      await statement.execute(db, params);
      return;
    }
    const statement = this.prepared(`release:${keys.length}`, (slot) =>
      this.db.updateTable("throttle").set({ in_flight: oneLess }).where("bucket", "in", inKeys(slot)),
    );
    await statement.execute(db, params);
  }

  /**
   * The bucket's key when settling `buckets` as `outcome` is only this: one bucket whose attempts in
   * flight and failures end (a success that resets it), which is SETTLED_AND_RESET on its row. A
   * one-statement issue (storage/oauth-postgres-one-statement.ts) folds that update in; else undefined.
   */
  successResettingOneBucket(buckets: ThrottleBucket[], outcome: AttemptOutcome): string | undefined {
    const [only, ...more] = buckets;
    if (!only || more.length > 0 || outcome.kind !== "success") return undefined;
    return outcome.reset.some((bucket) => bucket.key === only.key) ? only.key : undefined;
  }

  /**
   * Deletes this policy's rows that no longer hold anything (review finding 10): no failure within
   * `forgetAfterSeconds` (or none at all) and no reservation still counting. Run by a background job.
   */
  async purgeStale(): Promise<number> {
    const now = this.clock.nowSeconds();
    const result = await this.db
      .deleteFrom("throttle")
      // A key range instead of LIKE: the same on both dialects, and it uses the primary key.
      .where("bucket", ">=", `${this.policy.namespace}:`)
      .where("bucket", "<", `${this.policy.namespace};`)
      .where((eb) => eb.or([eb("failures", "=", 0), eb("last_failure_at", "<=", now - this.policy.forgetAfterSeconds)]))
      .where((eb) => eb.or([eb("in_flight", "=", 0), eb("last_attempt_at", "<=", now - this.inFlightForgetSeconds)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private prepared(name: string, build: (slots: Slots) => Compilable<unknown>): PreparedQuery<Params, unknown> {
    let statement = this.statements.get(name);
    if (!statement) {
      statement = new PreparedQuery<Params, unknown>((slot) => build(toSlots(slot)));
      this.statements.set(name, statement);
    }
    return statement;
  }

  /**
   * What to put in Retry-After for a refused attempt: the rest of the lockout when the ceiling
   * refused it, the capped delay when an attempt in flight did (it is decided by then); at least 1 s.
   */
  private async retryAfterSeconds(bucket: ThrottleBucket, now: number): Promise<number> {
    const row = await this.db
      .selectFrom("throttle")
      .select(["failures", "last_failure_at", "in_flight", "last_attempt_at"])
      .where("bucket", "=", bucket.key)
      .executeTakeFirst();
    if (!row) return 1;
    const failures = Number(row.last_failure_at) > now - this.policy.forgetAfterSeconds ? Number(row.failures) : 0;
    const inFlight = Number(row.last_attempt_at) > now - this.inFlightForgetSeconds ? Number(row.in_flight) : 0;
    let seconds = 1;
    if (failures + inFlight >= this.policy.lockoutAfterFailures) {
      seconds = Math.max(seconds, Number(row.last_failure_at) + this.policy.lockoutSeconds - now);
    }
    if (inFlight > 0) seconds = Math.max(seconds, Math.ceil(this.policy.maxDelayMs / 1000));
    return seconds;
  }
}

/** What a reservation returns: the row's live failures and attempts in flight, this one included. */
interface ReservedRow {
  failures: number;
  in_flight: number;
}

/** The attempt's position in the bucket (what its delay is computed from), from its reservation's row. */
function positionOf(bucket: ThrottleBucket, row: ReservedRow): number {
  const failuresBefore = Number(row.failures);
  const inFlightBefore = Number(row.in_flight) - 1;
  return failuresBefore + (!bucket.shared || failuresBefore > 0 ? inFlightBefore : 0);
}

function toSlots(slot: SlotFactory<Params>): Slots {
  return { text: (key) => slot(key) as string, number: (key) => slot(key) as number };
}

/** A query creator with the CTE `reserved` (one row: the reservation's, or none when refused). */
export type ReservedQueryCreator = QueryCreator<Database & { reserved: ReservedRow }>;

/**
 * A read to run in the statement that reserves an attempt (Throttle.reserveWith): a query selecting
 * `reserved.failures` and `reserved.in_flight` from the CTE `reserved` along with what it reads;
 * its parameters are bound through `slot` (their names must not clash with the reservation's:
 * bucket, now, stale, abandoned, lockedSince). PostgreSQL only (data-modifying CTEs).
 */
export interface ReservationRider<R> {
  /** Names the statement's shape (one prepared statement per key). */
  key: string;
  select(reserved: ReservedQueryCreator, slot: (name: string) => string): Compilable<ReservedRow>;
  params: Record<string, string>;
  decode(row: ReservedRow): R;
}

/** The failures and the in-flight attempts that still count, as SQL over the existing row. */
function liveCounts(slot: Slots) {
  return {
    failures: sql<number>`(case when throttle.last_failure_at > ${slot.number("stale")} then throttle.failures else 0 end)`,
    inFlight: sql<number>`(case when throttle.last_attempt_at > ${slot.number("abandoned")} then throttle.in_flight else 0 end)`,
  };
}

/** Each bucket once, in key order (the order rows are locked in). */
function orderedBuckets(buckets: ThrottleBucket[]): ThrottleBucket[] {
  const byKey = new Map(buckets.map((bucket) => [bucket.key, bucket]));
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
