import { type Kysely, sql } from "kysely";
import { DEFAULT_CLIENTS } from "../../oauth/domain/default-clients.js";

/**
 * Scopes are enforced (src/oauth/domain/scope.ts):
 * - `oauth2_grants.scope` becomes what was granted, never null. Every grant recorded before this
 *   migration was issued when any token had full access, so it keeps it: the account scope is
 *   added to its scope, and a grant without one gets the account scope alone.
 * - `oauth2_clients.trusted_scopes`: the scopes a trusted client receives without the consent
 *   page; null means every scope (ownCloud's trusted clients skip consent altogether).
 * - `oauth2_clients.account_access`: an ownCloud or Nextcloud client, whose tokens have the account
 *   scope whatever it asks for; set for ownCloud's seeded desktop and mobile clients.
 */
export function scopesMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql`UPDATE oauth2_grants SET scope = CASE
        WHEN scope IS NULL OR trim(scope) = '' THEN 'account'
        ELSE trim(scope) || ' account' END`.execute(db);
      await db.schema.alterTable("oauth2_clients").addColumn("trusted_scopes", "text").execute();
      await db.schema
        .alterTable("oauth2_clients")
        .addColumn("account_access", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db
        .updateTable("oauth2_clients")
        .set({ account_access: 1 })
        .where(
          "client_id",
          "in",
          DEFAULT_CLIENTS.map((client) => client.clientId),
        )
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable("oauth2_clients").dropColumn("account_access").execute();
      await db.schema.alterTable("oauth2_clients").dropColumn("trusted_scopes").execute();
    },
  };
}
