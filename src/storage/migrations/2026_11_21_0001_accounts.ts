import type { Kysely } from "kysely";
import type { Dialect } from "../driver/database.js";
import { autoIncrementId } from "./portable.js";

export function accountsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("users")
        .addColumn("uid", "varchar(64)", (c) => c.primaryKey())
        .addColumn("display_name", "varchar(255)", (c) => c.notNull())
        .addColumn("email", "varchar(255)")
        .addColumn("password_hash", "text")
        .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();

      await autoIncrementId(db.schema.createTable("app_passwords"), dialect)
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("token_hash", "char(64)", (c) => c.notNull().unique())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("last_used_at", "bigint")
        .execute();
      await db.schema.createIndex("app_passwords_uid").on("app_passwords").column("uid").execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id_hash", "char(64)", (c) => c.primaryKey())
        .addColumn("uid", "varchar(64)", (c) => c.references("users.uid").onDelete("cascade"))
        .addColumn("csrf_token", "varchar(128)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sessions_uid").on("sessions").column("uid").execute();
      await db.schema.createIndex("sessions_expires_at").on("sessions").column("expires_at").execute();

      await db.schema
        .createTable("throttle")
        .addColumn("bucket", "varchar(255)", (c) => c.primaryKey())
        .addColumn("failures", "integer", (c) => c.notNull())
        .addColumn("last_failure_at", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("job_leases")
        .addColumn("name", "varchar(64)", (c) => c.primaryKey())
        .addColumn("holder", "varchar(128)", (c) => c.notNull())
        .addColumn("lease_until", "bigint", (c) => c.notNull())
        .addColumn("last_run_at", "bigint")
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      for (const table of ["job_leases", "throttle", "sessions", "app_passwords", "users"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
