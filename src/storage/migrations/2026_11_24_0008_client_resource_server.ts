import type { Kysely } from "kysely";

/**
 * `oauth2_clients.resource_server`: 1 for a client an administrator marked as a resource server,
 * which may introspect the tokens of other clients. Every client that exists
 * when this runs, the seeded ownCloud defaults (whose secrets are public) included, gets 0, so it
 * may introspect only the tokens issued to itself (RFC 7662 §4: a token scanner must not learn
 * about others' tokens).
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
