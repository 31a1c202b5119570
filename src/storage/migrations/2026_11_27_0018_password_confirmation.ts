import type { Kysely } from "kysely";

/**
 * When a session's user last proved the password, after the login that started the session
 * (src/accounts/password-confirmation.ts): null until the first confirmation, the login itself
 * (the session's `created_at`) counting as one, as Nextcloud keeps `last-password-confirm` in the
 * session (nextcloud/server lib/private/Authentication/Login/UpdateLastPasswordConfirmCommand.php).
 */
export function passwordConfirmationMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("sessions").addColumn("password_confirmed_at", "bigint").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("sessions").dropColumn("password_confirmed_at").execute();
    },
  };
}
