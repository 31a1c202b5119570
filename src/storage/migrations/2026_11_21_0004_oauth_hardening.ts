import type { Kysely } from "kysely";

/**
 * Security hardening:
 * - `oauth2_grants.public_client`: 1 when the grant's code was redeemed by a public client (client_id
 *   and PKCE, no secret), so its refresh tokens may be used with `client_id` alone (RFC 6749 §6).
 * - `oauth2_refresh_grace`: for the refresh-reuse grace window (`oauth2.refresh_reuse_grace`), the
 *   pair a rotation issued, sealed with the data directory's secret box, kept only until `expires_at`
 *   (at most 60 s), so a client that lost the response gets the same pair again. Deleted with the
 *   rotated token or its successor (cascade), so revoking the grant removes it too.
 */
export function oauthHardeningMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable("oauth2_grants")
        .addColumn("public_client", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable("oauth2_refresh_grace")
        .addColumn("refresh_token_id", "bigint", (c) => c.primaryKey().references("oauth2_refresh_tokens.id").onDelete("cascade"))
        .addColumn("successor_id", "bigint", (c) => c.notNull().references("oauth2_refresh_tokens.id").onDelete("cascade"))
        .addColumn("sealed_pair", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("oauth2_refresh_grace_expires").on("oauth2_refresh_grace").column("expires_at").execute();
      await db.schema.createIndex("oauth2_refresh_grace_successor").on("oauth2_refresh_grace").column("successor_id").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("oauth2_refresh_grace").execute();
      await db.schema.alterTable("oauth2_grants").dropColumn("public_client").execute();
    },
  };
}
