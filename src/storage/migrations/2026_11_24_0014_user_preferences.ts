import type { Kysely } from "kysely";

/**
 * A user's own language and time zone, and ownCloud's per-user preferences
 * (`./occ user:setting <uid> <app> <key> <value>`).
 *
 * `core lang` and `core timezone` are columns of `users`, not rows of `user_preferences`: every
 * authenticated request already reads its user row (with the bearer token, in one statement), so
 * the language costs no extra query; `user:setting` reads and writes those two keys there. Every
 * other key lives in `user_preferences` (docs/decisions.md).
 */
export function userPreferencesMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("users").addColumn("language", "varchar(16)").execute();
      await db.schema.alterTable("users").addColumn("timezone", "varchar(64)").execute();
      await db.schema
        .createTable("user_preferences")
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("app", "varchar(32)", (c) => c.notNull())
        .addColumn("config_key", "varchar(64)", (c) => c.notNull())
        .addColumn("config_value", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("user_preferences_pk", ["uid", "app", "config_key"])
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("user_preferences").execute();
      await db.schema.alterTable("users").dropColumn("timezone").execute();
      await db.schema.alterTable("users").dropColumn("language").execute();
    },
  };
}
