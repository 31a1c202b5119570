import type { BucketRow, ThrottleStore } from "../../../security/ports.js";
import { ThrottleStatements } from "../../statements/throttle.js";

/**
 * The table `throttle` for one policy as security/ports.ts ThrottleStore: the reservation, the
 * settlement and a bucket's row are the shared statements (statements/throttle.ts); an address's
 * failing buckets, a bucket forgotten and the purge are the store's own.
 */
export class SqlThrottleStore extends ThrottleStatements implements ThrottleStore {
  async forget(key: string): Promise<boolean> {
    const result = await this.db.deleteFrom("throttle").where("bucket", "=", key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async failingAddressRows(now: number, limit: number): Promise<Array<{ key: string; row: BucketRow }>> {
    const prefix = `${this.policy.namespace}:ip:`;
    const rows = await this.db
      .selectFrom("throttle")
      .select(["bucket", "failures", "last_failure_at", "in_flight", "last_attempt_at"])
      // A key range instead of LIKE, as purgeStale: the same on both dialects, on the primary key.
      .where("bucket", ">=", prefix)
      .where("bucket", "<", `${prefix.slice(0, -1)};`)
      .where("failures", ">", 0)
      .where("last_failure_at", ">", now - this.policy.forgetAfterSeconds)
      .orderBy("last_failure_at", "desc")
      .orderBy("bucket")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      key: row.bucket,
      row: {
        failures: Number(row.failures),
        lastFailureAt: Number(row.last_failure_at),
        inFlight: Number(row.in_flight),
        lastAttemptAt: Number(row.last_attempt_at),
      },
    }));
  }

  async purgeStale(now: number): Promise<number> {
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
}
