import type { Kysely } from "kysely";

/**
 * `oauth2_codes.redirect_uri`: the redirect URI of the authorization request that issued the code,
 * so the token request must repeat that very URI (RFC 6749 §4.1.3), not merely one the registration
 * allows. Nullable: codes issued before this
 * migration have none, and the token endpoint refuses them (docs/decisions.md); they expire within
 * the 10-minute code lifetime anyway.
 */
export function codeRedirectUriMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_codes").addColumn("redirect_uri", "text").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_codes").dropColumn("redirect_uri").execute();
    },
  };
}
