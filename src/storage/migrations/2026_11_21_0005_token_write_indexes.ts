import type { Kysely } from "kysely";

/**
 * Speed of the token endpoint: drops two indexes that every code exchange and refresh
 * rotation had to update (each a B-tree page written to the WAL per token) and that no request reads:
 * - `oauth2_refresh_tokens_expires`: the daily cleanup deletes refresh tokens that are expired *or*
 *   rotated, and `rotated_at` has no index, so that delete scans the table anyway;
 * - `oauth2_access_tokens_expires`: only the daily cleanup filters on it. Access tokens live an hour
 *   and the cleanup runs daily, so the table holds about a day of them: one scan a day costs less
 *   than updating the index on every exchange and rotation.
 * Lookups by token hash, by grant (revocation, cascades) and by access token (the refresh token's
 * link) keep their indexes.
 */
export function tokenWriteIndexesMigration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex("oauth2_refresh_tokens_expires").execute();
      await db.schema.dropIndex("oauth2_access_tokens_expires").execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex("oauth2_access_tokens_expires").on("oauth2_access_tokens").column("expires_at").execute();
      await db.schema.createIndex("oauth2_refresh_tokens_expires").on("oauth2_refresh_tokens").column("expires_at").execute();
    },
  };
}
