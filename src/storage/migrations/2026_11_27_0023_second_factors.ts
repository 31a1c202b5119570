import type { Kysely } from "kysely";

/**
 * Second factors (src/second-factor): `second_factor_totp`, one TOTP enrolment per user (the
 * secret sealed, the last accepted time step for replay refusal), `second_factor_recovery_codes`,
 * a user's recovery codes as SHA-256 hex with when each was used, and on `sessions` the step a
 * session that has passed only the password still owes (null: a complete login).
 */
export function secondFactorsMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("second_factor_totp")
        .addColumn("uid", "varchar(64)", (c) => c.primaryKey().references("users.uid").onDelete("cascade"))
        .addColumn("sealed_secret", "text", (c) => c.notNull())
        .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_used_step", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("second_factor_recovery_codes")
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("code_hash", "char(64)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("used_at", "bigint")
        .addPrimaryKeyConstraint("second_factor_recovery_codes_pk", ["uid", "code_hash"])
        .execute();
      await db.schema.alterTable("sessions").addColumn("second_factor_pending", "varchar(32)").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("sessions").dropColumn("second_factor_pending").execute();
      await db.schema.dropTable("second_factor_recovery_codes").execute();
      await db.schema.dropTable("second_factor_totp").execute();
    },
  };
}
