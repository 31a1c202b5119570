import type { Kysely } from "kysely";

/**
 * Clients that registered themselves (RFC 7591, src/oauth/registration.ts):
 * - `oauth2_clients.registered_at`: when the client registered itself; null for every client an
 *   administrator added (all clients before this migration);
 * - `oauth2_clients.last_used_at`: when a registered client last had tokens issued or a grant
 *   made, so the cleanup can delete those unused for 90 days; null until the first use.
 */
export function registeredClientsMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_clients").addColumn("registered_at", "bigint").execute();
      await db.schema.alterTable("oauth2_clients").addColumn("last_used_at", "bigint").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_clients").dropColumn("last_used_at").execute();
      await db.schema.alterTable("oauth2_clients").dropColumn("registered_at").execute();
    },
  };
}
