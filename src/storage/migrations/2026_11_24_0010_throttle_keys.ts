import type { Kysely } from "kysely";

/**
 * Issue 16 (review findings 2 and 10): the throttle reserves every attempt before checking it.
 * - `throttle.in_flight`: attempts reserved and not yet settled, so concurrent attempts see each other.
 * - `throttle.last_attempt_at`: when the latest attempt was reserved (an in-flight count this old
 *   was left by a node that stopped, and no longer counts; the purge job reads it too).
 * Per-user buckets are now keyed by a hash of the user name; rows under the old raw-name keys are
 * no longer read and age out through the purge job.
 */
export function throttleKeysMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable("throttle")
        .addColumn("in_flight", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("throttle")
        .addColumn("last_attempt_at", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("throttle").dropColumn("last_attempt_at").execute();
      await db.schema.alterTable("throttle").dropColumn("in_flight").execute();
    },
  };
}
