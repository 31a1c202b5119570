import type { Kysely } from "kysely";

/**
 * Personal settings lists one's browser sessions. A session remembers the browser that
 * logged in (its User-Agent, cut to 255 characters) and when it was last seen (written at most
 * once a minute, as app passwords' last use, so a page view is not a write each time).
 */
export function sessionDetailsMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("sessions").addColumn("user_agent", "varchar(255)").execute();
      await db.schema.alterTable("sessions").addColumn("last_seen_at", "bigint").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
      await db.schema.alterTable("sessions").dropColumn("user_agent").execute();
    },
  };
}
