import type { Kysely } from "kysely";

/**
 * Issue 16 (review #6): `oauth2_clients.resource_server`, 1 for a client an administrator marked as
 * a resource server, which may introspect the tokens of other clients. Every client that exists
 * when this runs, the seeded ownCloud defaults (whose secrets are public) included, gets 0: from
 * now on it may introspect only the tokens issued to itself.
 */
export function clientResourceServerMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable("oauth2_clients")
        .addColumn("resource_server", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_clients").dropColumn("resource_server").execute();
    },
  };
}
