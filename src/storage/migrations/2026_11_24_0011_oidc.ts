import type { Kysely } from "kysely";

/**
 * OpenID Connect:
 * - `oauth2_grants.scope`, `auth_time`, `nonce`: what an authorization granted (the request's
 *   `scope`, as sent), when its user last logged in (OIDC Core §2 `auth_time`) and the request's
 *   `nonce` (§3.1.2.1). On the grant, not the code: every code and token of a grant shares them, so
 *   the code exchange, each refresh (§12.2) and UserInfo (§5.3) read the same values. Null for
 *   grants made before this migration, which behave as ownCloud's (no `openid`, no ID token).
 * - `oauth2_clients.post_logout_redirect_uri`: the one URI RP-initiated logout may return to.
 * - `oidc_signing_keys`: the ID token signing keys, in the database so every node signs with and
 *   publishes the same set; the private JWK sealed with the client-secret key (security/secret-box.ts).
 *   `retired_at` is set when a rotation replaces the key: it still verifies (published in the JWKS)
 *   for the grace period after that, and is never used to sign again.
 */
export function oidcMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_grants").addColumn("scope", "text").execute();
      await db.schema.alterTable("oauth2_grants").addColumn("auth_time", "bigint").execute();
      await db.schema.alterTable("oauth2_grants").addColumn("nonce", "text").execute();
      await db.schema.alterTable("oauth2_clients").addColumn("post_logout_redirect_uri", "text").execute();
      await db.schema
        .createTable("oidc_signing_keys")
        .addColumn("kid", "text", (c) => c.primaryKey())
        .addColumn("alg", "text", (c) => c.notNull())
        .addColumn("public_jwk", "text", (c) => c.notNull())
        .addColumn("private_jwk_sealed", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("retired_at", "bigint")
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable("oidc_signing_keys").execute();
      await db.schema.alterTable("oauth2_clients").dropColumn("post_logout_redirect_uri").execute();
      await db.schema.alterTable("oauth2_grants").dropColumn("nonce").execute();
      await db.schema.alterTable("oauth2_grants").dropColumn("auth_time").execute();
      await db.schema.alterTable("oauth2_grants").dropColumn("scope").execute();
    },
  };
}
