import type { Kysely } from "kysely";

/**
 * Retries after a lost answer: `idempotency_keys`, one row per (scope, key) for 24 h.
 * The primary key is what makes a concurrent retry wait for the first attempt's transaction and
 * then find its answer (PostgreSQL blocks the second INSERT on the uncommitted row; SQLite runs
 * one write transaction at a time). `created_at` is indexed for the purge job.
 */
export function idempotencyKeysMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("idempotency_keys")
        .addColumn("scope", "varchar(80)", (c) => c.notNull())
        .addColumn("idempotency_key", "varchar(255)", (c) => c.notNull())
        .addColumn("uid", "varchar(64)", (c) => c.references("users.uid").onDelete("cascade"))
        .addColumn("fingerprint", "varchar(64)", (c) => c.notNull())
        .addColumn("result", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("idempotency_keys_pk", ["scope", "idempotency_key"])
        .execute();
      await db.schema.createIndex("idempotency_keys_created").on("idempotency_keys").column("created_at").execute();
      await db.schema.createIndex("idempotency_keys_uid").on("idempotency_keys").column("uid").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("idempotency_keys").execute();
    },
  };
}
