import type { Kysely } from "kysely";

/**
 * `login_flows`, one row per Nextcloud Login Flow v2 (docs/security.md "Login Flow v2").
 * Both tokens are stored as SHA-256 hex only; the app password a grant created is kept sealed
 * (secret-box) until its one poll deletes the row. `app_password_id` cascades: revoking that app
 * password in personal settings before the poll ends the flow too. `created_at` is indexed for the
 * purge of expired flows.
 */
export function loginFlowMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("login_flows")
        .addColumn("poll_token_hash", "char(64)", (c) => c.primaryKey())
        .addColumn("login_token_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("client_name", "varchar(255)", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("uid", "varchar(64)", (c) => c.references("users.uid").onDelete("cascade"))
        .addColumn("login_name", "varchar(64)")
        .addColumn("app_password_id", "bigint", (c) => c.references("app_passwords.id").onDelete("cascade"))
        .addColumn("sealed_app_password", "text")
        .execute();
      await db.schema.createIndex("login_flows_created_at").on("login_flows").column("created_at").execute();
      await db.schema.createIndex("login_flows_uid").on("login_flows").column("uid").execute();
      await db.schema.createIndex("login_flows_app_password").on("login_flows").column("app_password_id").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("login_flows").execute();
    },
  };
}
