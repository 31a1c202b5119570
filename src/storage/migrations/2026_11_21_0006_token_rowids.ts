import { type Kysely, sql } from "kysely";
import type { Dialect } from "../driver/database.js";

/**
 * Speed of the token endpoint, SQLite only: the two token tables lose `AUTOINCREMENT`
 * and number their rows with plain rowids.
 *
 * With `AUTOINCREMENT`, SQLite reads and rewrites `sqlite_sequence` on every insert, so each code
 * exchange and refresh rotation wrote one more B-tree page to the WAL (10.4 pages per exchange,
 * counted in the WAL; SQLite's own documentation advises against the keyword when it is not needed).
 * It is not needed here: the keyword only forbids reusing the id of a deleted row, and a token id
 * never leaves the database (no answer, log line or page shows one). The rows that point at a token
 * (its refresh token, a grace pair) are cleared or deleted with it by their foreign keys, so a
 * reused id can never be mistaken for the deleted token. Activity ids, which clients page by, and
 * grant ids, which log lines name, keep `AUTOINCREMENT`.
 *
 * SQLite cannot drop the keyword in place: each table is rebuilt under its own name, rows and ids
 * copied, in the migration run's one transaction (see lifecycle/migrate.ts). The refresh-grace table points
 * at the refresh tokens, so it is rebuilt too; the new tables are created first and the old ones
 * dropped children first, so no foreign-key action fires on the copied rows. On PostgreSQL, ids
 * come from sequences (`bigserial`) and nothing changes.
 */
export function tokenRowidsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== "sqlite") return;
      await db.schema
        .createTable("oauth2_access_tokens_rebuilt")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("grant_id", "bigint", (c) => c.notNull().references("oauth2_grants.id").onDelete("cascade"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("oauth2_refresh_tokens_rebuilt")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("grant_id", "bigint", (c) => c.notNull().references("oauth2_grants.id").onDelete("cascade"))
        .addColumn("access_token_id", "bigint", (c) => c.references("oauth2_access_tokens_rebuilt.id").onDelete("set null"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("rotated_at", "bigint")
        .execute();
      await db.schema
        .createTable("oauth2_refresh_grace_rebuilt")
        .addColumn("refresh_token_id", "bigint", (c) =>
          c.primaryKey().references("oauth2_refresh_tokens_rebuilt.id").onDelete("cascade"),
        )
        .addColumn("successor_id", "bigint", (c) =>
          c.notNull().references("oauth2_refresh_tokens_rebuilt.id").onDelete("cascade"),
        )
        .addColumn("sealed_pair", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();

      await sql`insert into oauth2_access_tokens_rebuilt (id, token_hash, grant_id, created_at, expires_at)
        select id, token_hash, grant_id, created_at, expires_at from oauth2_access_tokens`.execute(db);
      await sql`insert into oauth2_refresh_tokens_rebuilt
          (id, token_hash, grant_id, access_token_id, created_at, expires_at, rotated_at)
        select id, token_hash, grant_id, access_token_id, created_at, expires_at, rotated_at
        from oauth2_refresh_tokens`.execute(db);
      await sql`insert into oauth2_refresh_grace_rebuilt (refresh_token_id, successor_id, sealed_pair, expires_at)
        select refresh_token_id, successor_id, sealed_pair, expires_at from oauth2_refresh_grace`.execute(db);

      // Children first: when a table is dropped nothing references it any more, so its implicit
      // delete sets nothing to null and cascades nowhere.
      await db.schema.dropTable("oauth2_refresh_grace").execute();
      await db.schema.dropTable("oauth2_refresh_tokens").execute();
      await db.schema.dropTable("oauth2_access_tokens").execute();
      // SQLite rewrites the foreign keys that name a renamed table (legacy_alter_table is off).
      await db.schema.alterTable("oauth2_access_tokens_rebuilt").renameTo("oauth2_access_tokens").execute();
      await db.schema.alterTable("oauth2_refresh_tokens_rebuilt").renameTo("oauth2_refresh_tokens").execute();
      await db.schema.alterTable("oauth2_refresh_grace_rebuilt").renameTo("oauth2_refresh_grace").execute();

      // The indexes of 0002, 0004 and 0005, by their names.
      await db.schema.createIndex("oauth2_access_tokens_grant").on("oauth2_access_tokens").column("grant_id").execute();
      await db.schema.createIndex("oauth2_refresh_tokens_grant").on("oauth2_refresh_tokens").column("grant_id").execute();
      await db.schema.createIndex("oauth2_refresh_tokens_access").on("oauth2_refresh_tokens").column("access_token_id").execute();
      await db.schema.createIndex("oauth2_refresh_grace_expires").on("oauth2_refresh_grace").column("expires_at").execute();
      await db.schema.createIndex("oauth2_refresh_grace_successor").on("oauth2_refresh_grace").column("successor_id").execute();
      await sql`delete from sqlite_sequence where name in ('oauth2_access_tokens', 'oauth2_refresh_tokens')`.execute(db);
    },
  };
}
