import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

/**
 * The audit log (src/audit, storage/stores/audit/audit-store.ts): one row per event, appended only. Indexes for
 * the pages' filters: time (the retention and `since`/`until`), the user concerned and the actor
 * (a user's own view, the administrators' user filter), each with the id the pages are ordered by.
 */
export function auditLogMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await autoIncrementId(db.schema.createTable("audit_log"), dialect)
        .addColumn("at", "bigint", (c) => c.notNull())
        .addColumn("kind", "varchar(64)", (c) => c.notNull())
        .addColumn("actor", "varchar(64)", (c) => c.notNull())
        .addColumn("uid", "varchar(64)")
        .addColumn("subject_type", "varchar(32)")
        .addColumn("subject", "varchar(255)")
        .addColumn("address", "varchar(64)")
        .addColumn("user_agent", "varchar(512)")
        .addColumn("request_id", "varchar(64)")
        .addColumn("detail", "text")
        .execute();
      await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at"]).execute();
      await db.schema.createIndex("audit_log_uid").on("audit_log").columns(["uid", "id"]).execute();
      await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["actor", "id"]).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("audit_log").execute();
    },
  };
}
