import type { Kysely } from "kysely";

/**
 * File activities from the proxy's access log:
 * - `file_log_cursors`: how far each log has been read, per log identity (a hash of its first
 *   line, so a rotated or truncated file is a new log and every node reading the same file
 *   shares one cursor). Advanced in the transaction that writes the activities it read.
 * - `file_log_requests`: one row per nginx request id that became an activity; the primary key is
 *   what makes a request publish at most once, whichever node or file copy reads it.
 */
export function fileActivityMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("file_log_cursors")
        .addColumn("log_id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("position", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("file_log_cursors_updated").on("file_log_cursors").column("updated_at").execute();
      await db.schema
        .createTable("file_log_requests")
        .addColumn("request_id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("requested_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("file_log_requests_requested").on("file_log_requests").column("requested_at").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("file_log_requests").execute();
      await db.schema.dropTable("file_log_cursors").execute();
    },
  };
}
