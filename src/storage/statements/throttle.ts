import { type Compilable, sql } from "kysely";
import {
  cappedPosition,
  inFlightForgetSeconds,
  type ThrottleBucket,
  type ThrottlePolicy,
} from "../../security/domain/throttle-policy.js";
import type { BucketRow, ReservedCounts, Settlement } from "../../security/ports.js";
import type { DbOrTx } from "../driver/database.js";
import { PreparedQuery, type SlotFactory } from "../driver/prepared.js";

type Params = Record<string, string | number>;
/** Placeholders for a prepared statement's parameters, typed as the values they stand for. */
export type Slots = { text(name: string): string; number(name: string): number };

/** A success that resets its bucket, on the bucket's row: no attempt in flight, no failure on record. */
export const SETTLED_AND_RESET = { in_flight: 0, failures: 0 } as const;

/** What a reservation returns: the row's live failures and attempts in flight, this one included. */
export interface ReservedRow {
  failures: number;
  in_flight: number;
}

/** The values a reservation statement binds (`bucket`, `now`, `stale`, `abandoned`, `lockedSince`). */
export type ReservationParams = Params;

/**
 * The table `throttle` for one policy: an attempt's reservation, its settlement and a bucket's row,
 * which the throttle store (stores/security/throttle-store.ts) and the token endpoint's gate
 * (stores/oauth/token-gate.ts) both run. Every request with a throttled credential runs a reservation
 * and a settlement, so each statement is built and compiled once per shape (PreparedQuery: named
 * prepared statements on PostgreSQL): per kind of bucket, per number of buckets and of buckets reset.
 */
export class ThrottleStatements {
  private readonly cappedPosition: number;
  protected readonly inFlightForgetSeconds: number;
  private readonly statements = new Map<string, PreparedQuery<Params, unknown>>();

  constructor(
    protected readonly db: DbOrTx,
    readonly policy: ThrottlePolicy,
  ) {
    this.cappedPosition = cappedPosition(policy);
    this.inFlightForgetSeconds = inFlightForgetSeconds(policy);
  }

  async reserve(bucket: ThrottleBucket, now: number): Promise<ReservedCounts | undefined> {
    const statement = this.prepared(`reserve:${bucket.shared}`, (slot) => this.reservation(this.db, bucket, slot));
    const row = (await statement.first(this.db, this.reservationParams(bucket, now))) as ReservedRow | undefined;
    return row && countsOf(row);
  }

  /** The parameters of `reservation(…)`'s statement for this bucket at `now`. */
  reservationParams(bucket: ThrottleBucket, now: number): ReservationParams {
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
   * flight (this one included), or no row when the conflict branch's WHERE refuses it. Also the
   * data-modifying CTE of the token endpoint's reservation with its read (stores/oauth/token-gate.ts).
   */
  reservation(db: DbOrTx, bucket: ThrottleBucket, slot: Slots) {
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

  settle(keys: string[], settlement: Settlement, now: number): Promise<void> {
    return this.settleOn(this.db, keys, settlement, now);
  }

  /** The same settlement on `db`: the store's own connection, or a transaction of another write's. */
  async settleOn(db: DbOrTx, keys: string[], settlement: Settlement, now: number): Promise<void> {
    if (keys.length === 0) return;
    const params: Params = { now, stale: now - this.policy.forgetAfterSeconds };
    keys.forEach((key, i) => {
      params[`bucket${i}`] = key;
    });
    const oneLess = sql<number>`case when throttle.in_flight > 0 then throttle.in_flight - 1 else 0 end`;
    const inKeys = (slot: Slots) => keys.map((_, i) => slot.text(`bucket${i}`));
    if (settlement.kind === "failure") {
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
    if (settlement.kind === "success") {
      const resetKeys = new Set(settlement.resetKeys);
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

  async row(key: string): Promise<BucketRow | undefined> {
    const row = await this.db
      .selectFrom("throttle")
      .select(["failures", "last_failure_at", "in_flight", "last_attempt_at"])
      .where("bucket", "=", key)
      .executeTakeFirst();
    return (
      row && {
        failures: Number(row.failures),
        lastFailureAt: Number(row.last_failure_at),
        inFlight: Number(row.in_flight),
        lastAttemptAt: Number(row.last_attempt_at),
      }
    );
  }

  private prepared(name: string, build: (slots: Slots) => Compilable<unknown>): PreparedQuery<Params, unknown> {
    let statement = this.statements.get(name);
    if (!statement) {
      statement = new PreparedQuery<Params, unknown>((slot) => build(toSlots(slot)));
      this.statements.set(name, statement);
    }
    return statement;
  }
}

/**
 * The bucket's key when `settlement` of `keys` is only this: one bucket whose attempts in flight
 * and failures end (a success resetting it), which is SETTLED_AND_RESET on its row; a one-statement
 * issue (stores/oauth/oauth-postgres-one-statement.ts) folds that update in. Otherwise undefined.
 */
export function successResettingOneBucket(keys: string[], settlement: Settlement): string | undefined {
  const [only, ...more] = keys;
  if (only === undefined || more.length > 0 || settlement.kind !== "success") return undefined;
  return settlement.resetKeys.includes(only) ? only : undefined;
}

export function countsOf(row: ReservedRow): ReservedCounts {
  return { failures: Number(row.failures), inFlight: Number(row.in_flight) };
}

export function toSlots(slot: SlotFactory<Params>): Slots {
  return { text: (key) => slot(key) as string, number: (key) => slot(key) as number };
}

/** The failures and the in-flight attempts that still count, as SQL over the existing row. */
function liveCounts(slot: Slots) {
  return {
    failures: sql<number>`(case when throttle.last_failure_at > ${slot.number("stale")} then throttle.failures else 0 end)`,
    inFlight: sql<number>`(case when throttle.last_attempt_at > ${slot.number("abandoned")} then throttle.in_flight else 0 end)`,
  };
}
