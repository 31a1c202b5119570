import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

/** The names of ownCloud's default clients, seeded once (src/oauth/domain/default-clients.ts). */
const DEFAULT_CLIENT_NAMES = ["Desktop Client", "Android", "iOS"];

/**
 * OAuth 2.0: clients, grants, and the codes and tokens descending from a grant (stored as SHA-256
 * only). Deleting a client or a user deletes its grants, and deleting a grant its codes and tokens.
 * Also the user avatar table (userinfo `picture`).
 */
export function oauthMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await autoIncrementId(db.schema.createTable("oauth2_clients"), dialect)
        .addColumn("name", "varchar(80)", (c) => c.notNull().unique())
        .addColumn("client_id", "varchar(255)", (c) => c.notNull().unique())
        .addColumn("secret_encrypted", "text", (c) => c.notNull())
        .addColumn("redirect_uri", "varchar(2000)", (c) => c.notNull())
        .addColumn("allow_subdomains", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("trusted", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();

      await autoIncrementId(db.schema.createTable("oauth2_grants"), dialect)
        .addColumn("client_id", "bigint", (c) => c.notNull().references("oauth2_clients.id").onDelete("cascade"))
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("authorized_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("oauth2_grants_uid_client").on("oauth2_grants").columns(["uid", "client_id"]).execute();
      await db.schema.createIndex("oauth2_grants_client").on("oauth2_grants").column("client_id").execute();

      await db.schema
        .createTable("oauth2_codes")
        .addColumn("code_hash", "char(64)", (c) => c.primaryKey())
        .addColumn("grant_id", "bigint", (c) => c.notNull().references("oauth2_grants.id").onDelete("cascade"))
        .addColumn("code_challenge", "varchar(255)")
        .addColumn("code_challenge_method", "varchar(32)")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("consumed_at", "bigint")
        .execute();
      await db.schema.createIndex("oauth2_codes_grant").on("oauth2_codes").column("grant_id").execute();
      await db.schema.createIndex("oauth2_codes_expires").on("oauth2_codes").column("expires_at").execute();

      await autoIncrementId(db.schema.createTable("oauth2_access_tokens"), dialect)
        .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("grant_id", "bigint", (c) => c.notNull().references("oauth2_grants.id").onDelete("cascade"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("oauth2_access_tokens_grant").on("oauth2_access_tokens").column("grant_id").execute();
      await db.schema.createIndex("oauth2_access_tokens_expires").on("oauth2_access_tokens").column("expires_at").execute();

      await autoIncrementId(db.schema.createTable("oauth2_refresh_tokens"), dialect)
        .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("grant_id", "bigint", (c) => c.notNull().references("oauth2_grants.id").onDelete("cascade"))
        .addColumn("access_token_id", "bigint", (c) => c.references("oauth2_access_tokens.id").onDelete("set null"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("rotated_at", "bigint")
        .execute();
      await db.schema.createIndex("oauth2_refresh_tokens_grant").on("oauth2_refresh_tokens").column("grant_id").execute();
      await db.schema.createIndex("oauth2_refresh_tokens_expires").on("oauth2_refresh_tokens").column("expires_at").execute();
      await db.schema.createIndex("oauth2_refresh_tokens_access").on("oauth2_refresh_tokens").column("access_token_id").execute();

      await db.schema
        .createTable("oauth2_pending_seeds")
        .addColumn("name", "varchar(80)", (c) => c.primaryKey())
        .execute();
      await db
        .insertInto("oauth2_pending_seeds")
        .values(DEFAULT_CLIENT_NAMES.map((name) => ({ name })))
        .execute();

      await db.schema
        .createTable("user_avatars")
        .addColumn("uid", "varchar(64)", (c) => c.primaryKey().references("users.uid").onDelete("cascade"))
        .addColumn("content_type", "varchar(64)", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      for (const table of [
        "user_avatars",
        "oauth2_pending_seeds",
        "oauth2_refresh_tokens",
        "oauth2_access_tokens",
        "oauth2_codes",
        "oauth2_grants",
        "oauth2_clients",
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
