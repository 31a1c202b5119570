import type { Kysely } from "kysely";

/**
 * The administration console's users table shows each user's last sign-in (ownCloud's
 * `lastLogin`, core/Command/User/ListUsers.php): users.last_login_at, written when a browser
 * login completes and when an app password is used (at most once a minute, with its last use).
 * Null: never signed in since the column exists.
 */
export function lastLoginMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("users").addColumn("last_login_at", "bigint").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("users").dropColumn("last_login_at").execute();
    },
  };
}
