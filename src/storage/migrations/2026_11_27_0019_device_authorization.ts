import type { Kysely } from "kysely";

/**
 * `oauth2_device_codes`, one row per device authorization (RFC 8628 §3.2; docs/security.md
 * "Device authorization grant"). The device code and the user code (normalized, RFC 8628 §6.1) are
 * stored as SHA-256 hex only. `state` is `pending` until the user approves or denies on the
 * verification page; `poll_interval` grows with each `slow_down` (§3.5), `last_polled_at` is the
 * previous poll. An approval records a grant with one code (nobody holds its value: the device
 * code's poll redeems it) in `grant_id` and `code_hash`; revoking that grant removes the row
 * (cascade). `expires_at` is indexed for the cleanup, `user_code_hash` unique for the page's lookup.
 */
export function deviceAuthorizationMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("oauth2_device_codes")
        .addColumn("device_code_hash", "char(64)", (c) => c.primaryKey())
        .addColumn("user_code_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("client_id", "bigint", (c) => c.notNull().references("oauth2_clients.id").onDelete("cascade"))
        .addColumn("scope", "text", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("public_client", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("poll_interval", "integer", (c) => c.notNull())
        .addColumn("last_polled_at", "bigint")
        .addColumn("grant_id", "bigint", (c) => c.references("oauth2_grants.id").onDelete("cascade"))
        .addColumn("code_hash", "char(64)")
        .execute();
      await db.schema.createIndex("oauth2_device_codes_expires_at").on("oauth2_device_codes").column("expires_at").execute();
      await db.schema.createIndex("oauth2_device_codes_client").on("oauth2_device_codes").column("client_id").execute();
      await db.schema.createIndex("oauth2_device_codes_grant").on("oauth2_device_codes").column("grant_id").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("oauth2_device_codes").execute();
    },
  };
}
