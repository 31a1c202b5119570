import type { Kysely } from "kysely";
import { emailKey } from "../../accounts/domain/email.js";

/**
 * What keeps an account's identity its own (docs/decisions.md "Identity: user names, e-mail
 * addresses, Login Flow names"):
 * - `deleted_uids`: the user names of deleted accounts. `sub` is the user name (OpenID Connect
 *   Core §2: never reassigned), so a deleted user's name is given to a new account only when the
 *   administrator says so (`./occ user:add --reuse-deleted-name`), which removes its row here.
 *   Accounts deleted before this migration left no trace and are not listed.
 * - `users.email_key`: the address as accounts/domain/email.ts compares it, unique, so two
 *   accounts cannot hold one address whatever races between two writes. Addresses shared by
 *   several accounts before this migration stay as they are (nothing is rewritten or dropped):
 *   the oldest account (then the smallest uid) gets the key, the others keep their address without
 *   one, and the rule applies to them at their next change of address.
 * - `users.email_verified`: 1 only when an administrator marked the address verified
 *   (`./occ user:modify <uid> email <address> --verified`); every address starts unverified.
 * - `login_flows.client_address`: the address a Login Flow v2 was started from, shown on the
 *   grant page; null for flows started before this migration.
 */
export function identityMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("deleted_uids")
        .addColumn("uid", "varchar(64)", (c) => c.primaryKey())
        .addColumn("deleted_at", "bigint", (c) => c.notNull())
        .execute();

      await db.schema.alterTable("users").addColumn("email_key", "varchar(255)").execute();
      await db.schema
        .alterTable("users")
        .addColumn("email_verified", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      const withAddress: Array<{ uid: string; email: string }> = await db
        .selectFrom("users")
        .select(["uid", "email"])
        .where("email", "is not", null)
        .orderBy("created_at")
        .orderBy("uid")
        .execute();
      const keyed = new Set<string>();
      for (const { uid, email } of withAddress) {
        const key = emailKey(email);
        if (keyed.has(key)) continue;
        keyed.add(key);
        await db.updateTable("users").set({ email_key: key }).where("uid", "=", uid).execute();
      }
      await db.schema.createIndex("users_email_key").unique().on("users").column("email_key").execute();

      await db.schema.alterTable("login_flows").addColumn("client_address", "varchar(64)").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("login_flows").dropColumn("client_address").execute();
      await db.schema.dropIndex("users_email_key").execute();
      await db.schema.alterTable("users").dropColumn("email_verified").execute();
      await db.schema.alterTable("users").dropColumn("email_key").execute();
      await db.schema.dropTable("deleted_uids").execute();
    },
  };
}
