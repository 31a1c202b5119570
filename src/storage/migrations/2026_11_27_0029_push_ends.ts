import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

/**
 * `push_ends`: on SQLite, a user's credentials ended (an app password revoked, the user disabled or
 * deleted) by one process, for the server process holding the user's push sockets to read and
 * close them (storage/stores/push/push-channel-sqlite.ts). Rows are kept an hour. PostgreSQL nodes tell each
 * other with NOTIFY instead and never write it, but the table is made there too: both dialects keep
 * one schema, which `occ db:convert-type` checks before it copies anything.
 */
export function pushEndsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await autoIncrementId(db.schema.createTable("push_ends"), dialect)
        .addColumn("uid", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("push_ends_created_at").on("push_ends").column("created_at").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("push_ends").execute();
    },
  };
}
