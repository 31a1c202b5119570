import type { Kysely } from "kysely";

/**
 * The throttle reserves every attempt before checking it, so a concurrent burst cannot slip past
 * the delay and the failure ceiling together.
 * - `throttle.in_flight`: attempts reserved and not yet settled, so concurrent attempts see each other.
 * - `throttle.last_attempt_at`: when the latest attempt was reserved (an in-flight count this old
 *   is left over from a node that stopped, and does not count; the purge job reads it too).
 * Per-user buckets are keyed by a hash of the user name (an attacker chooses the name, of any
 * length); rows under raw-name keys written before this migration are never read and age out
 * through the purge job.
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
