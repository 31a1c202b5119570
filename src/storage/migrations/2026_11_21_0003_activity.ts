import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

/**
 * The activity stream. Every index starts with `affecteduser` and ends with
 * `(timestamp, activity_id)`, so each filter is one keyset range scan per user in either sort
 * order (scanned forwards for `asc`, backwards for `desc`), never a sort and never an OFFSET:
 *   all → activity_user_time, self/by → activity_user_self, files/files_sharing/security →
 *   activity_user_category, filter (object) → activity_user_object. Retention uses activity_time.
 */
export function activityMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await autoIncrementId(db.schema.createTable("activity"), dialect, "activity_id")
        .addColumn("timestamp", "bigint", (c) => c.notNull())
        .addColumn("app", "varchar(32)", (c) => c.notNull())
        .addColumn("type", "varchar(255)", (c) => c.notNull())
        .addColumn("user", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("affecteduser", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("is_self", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("category", "varchar(32)", (c) => c.notNull().defaultTo(""))
        .addColumn("subject", "varchar(255)", (c) => c.notNull())
        .addColumn("subjectparams", "text", (c) => c.notNull())
        .addColumn("message", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("messageparams", "text", (c) => c.notNull())
        .addColumn("link", "varchar(4000)", (c) => c.notNull().defaultTo(""))
        .addColumn("object_type", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("object_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("object_name", "varchar(4000)", (c) => c.notNull().defaultTo(""))
        .execute();
      const indexes: Array<[string, string[]]> = [
        ["activity_user_time", ["affecteduser", "timestamp", "activity_id"]],
        ["activity_user_self", ["affecteduser", "is_self", "timestamp", "activity_id"]],
        ["activity_user_category", ["affecteduser", "category", "timestamp", "activity_id"]],
        ["activity_user_object", ["affecteduser", "object_type", "object_id", "timestamp", "activity_id"]],
      ];
      for (const [name, columns] of indexes) {
        await db.schema.createIndex(name).on("activity").columns(columns).execute();
      }
      // For retention (`timestamp < ?` across all users). On PostgreSQL a BRIN index: a B-tree on
      // timestamp alone tempted the planner to walk it backwards for a user's first page, filtering
      // every newer row of every other user (89k rows, 11 ms, growing with the table). A BRIN index
      // serves range deletes but can never provide order, so stream pages stay on the per-user
      // indexes. SQLite's planner keeps to the per-user indexes (test/activity/indexes.test.ts).
      const retention = db.schema.createIndex("activity_time").on("activity").column("timestamp");
      await (dialect === "postgres" ? retention.using("brin") : retention).execute();

      await db.schema
        .createTable("activity_stream_settings")
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("type", "varchar(255)", (c) => c.notNull())
        .addColumn("enabled", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("activity_stream_settings_pk", ["uid", "type"])
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("activity_stream_settings").execute();
      await db.schema.dropTable("activity").execute();
    },
  };
}
