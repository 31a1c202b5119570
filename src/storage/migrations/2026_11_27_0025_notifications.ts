import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

/**
 * `notifications` (src/notifications): a user's notifications as Nextcloud's notifications app
 * serves them. A row keeps the kind and the JSON parameters of its text, not the text: it is
 * rendered in the reader's language when read. Listed newest first per user (`uid, id`), found
 * by object for an administrator's message that replaces an earlier one, purged by age daily.
 */
export function notificationsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await autoIncrementId(db.schema.createTable("notifications"), dialect)
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("kind", "varchar(64)", (c) => c.notNull())
        .addColumn("params", "text", (c) => c.notNull())
        .addColumn("object_type", "varchar(64)", (c) => c.notNull())
        .addColumn("object_id", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("notifications_uid_id").on("notifications").columns(["uid", "id"]).execute();
      await db.schema
        .createIndex("notifications_object")
        .on("notifications")
        .columns(["uid", "object_type", "object_id"])
        .execute();
      await db.schema.createIndex("notifications_created_at").on("notifications").column("created_at").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("notifications").execute();
    },
  };
}
