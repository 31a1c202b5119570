import { type Kysely, sql } from "kysely";

/**
 * Scopes are enforced (src/oauth/domain/scope.ts):
 * - `oauth2_grants.scope` becomes what was granted, never null. Every grant recorded before this
 *   migration was issued when any token had full access, so it keeps it: the account scope is
 *   added to its scope, and a grant without one gets the account scope alone.
 * - `oauth2_clients.trusted_scopes`: the scopes a trusted client receives without the consent
 *   page; null means every scope (ownCloud's trusted clients skip consent altogether).
 */
export function scopesMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql`UPDATE oauth2_grants SET scope = CASE
        WHEN scope IS NULL OR trim(scope) = '' THEN 'account'
        ELSE trim(scope) || ' account' END`.execute(db);
      await db.schema.alterTable("oauth2_clients").addColumn("trusted_scopes", "text").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_clients").dropColumn("trusted_scopes").execute();
    },
  };
}
