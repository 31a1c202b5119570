import type { Kysely } from "kysely";

/**
 * Passkeys (src/second-factor/passkeys.ts): `webauthn_credentials`, a user's registered public key
 * credentials with their signature counter and last use, and `webauthn_challenges`, the challenges
 * handed out and not yet answered, each bound to what may answer it and short-lived.
 */
export function passkeysMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable("webauthn_credentials")
        .addColumn("credential_id", "varchar(1400)", (c) => c.primaryKey())
        .addColumn("uid", "varchar(64)", (c) => c.notNull().references("users.uid").onDelete("cascade"))
        .addColumn("name", "varchar(64)", (c) => c.notNull())
        .addColumn("public_key", "text", (c) => c.notNull())
        .addColumn("sign_count", "bigint", (c) => c.notNull())
        .addColumn("transports", "varchar(200)", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("last_used_at", "bigint")
        .execute();
      await db.schema.createIndex("webauthn_credentials_uid").on("webauthn_credentials").column("uid").execute();
      await db.schema
        .createTable("webauthn_challenges")
        .addColumn("challenge", "varchar(128)", (c) => c.primaryKey())
        .addColumn("binding", "varchar(200)", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("webauthn_challenges").execute();
      await db.schema.dropTable("webauthn_credentials").execute();
    },
  };
}
