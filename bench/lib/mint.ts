import { SqliteAdapter, sql } from "kysely";
import { newSecretValue } from "../../src/oauth/tokens.js";
import type { Db } from "../../src/storage/driver/database.js";

/** Whose grants a pool is made of, and what the authorization request would have stored. */
export interface MintTarget {
  /** `oauth2_clients.id` of the client. */
  clientInternalId: number;
  uid: string;
  /** Stored with each code, as the authorization request's redirect URI (RFC 6749 §4.1.3, migration 0007). */
  redirectUri: string;
}

const CHUNK = 1000;

/**
 * Codes, access tokens or refresh tokens written straight into Keystream's tables, as the authorize
 * and token endpoints write them (one grant each, SHA-256 at rest), in bulk so that minting a pool
 * takes a moment on PostgreSQL too. Used by the bench and by `npm run chaos`: a pool made before the
 * load, so that the load measures only the exchanges. Returns the plain values.
 */
export async function mintGrants(db: Db, target: MintTarget, kind: "code" | "refresh" | "access", n: number): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const values = Array.from({ length: n }, () => newSecretValue());
  for (let start = 0; start < values.length; start += CHUNK) {
    const chunk = values.slice(start, start + CHUNK);
    await db.transaction().execute(async (trx) => {
      const grants = await trx
        .insertInto("oauth2_grants")
        .values(chunk.map(() => ({ client_id: target.clientInternalId, uid: target.uid, authorized_at: now })))
        .returning("id")
        .execute();
      const grantIds = grants.map((g) => Number(g.id));
      if (kind === "code") {
        await trx
          .insertInto("oauth2_codes")
          .values(
            chunk.map((v, i) => ({
              code_hash: v.hash,
              grant_id: grantIds[i]!,
              code_challenge: null,
              code_challenge_method: null,
              redirect_uri: target.redirectUri,
              created_at: now,
              // Longer than the 600 s a real code lives: a pool may wait through a long run.
              expires_at: now + 3600,
              consumed_at: null,
            })),
          )
          .execute();
        return;
      }
      const access = chunk.map((v, i) => ({
        token_hash: kind === "access" ? v.hash : newSecretValue().hash,
        grant_id: grantIds[i]!,
        created_at: now,
        expires_at: now + 3600,
      }));
      const accessIds = await trx.insertInto("oauth2_access_tokens").values(access).returning(["id", "grant_id"]).execute();
      if (kind === "refresh") {
        const byGrant = new Map(accessIds.map((a) => [Number(a.grant_id), Number(a.id)]));
        await trx
          .insertInto("oauth2_refresh_tokens")
          .values(
            chunk.map((v, i) => ({
              token_hash: v.hash,
              grant_id: grantIds[i]!,
              access_token_id: byGrant.get(grantIds[i]!) ?? null,
              created_at: now,
              expires_at: now + 90 * 86_400,
              rotated_at: null,
            })),
          )
          .execute();
      }
    });
  }
  // Written through to the database file before the run, as the peer's minting is done before its
  // run: otherwise the server's checkpoint worker would copy the pool's pages during the run.
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`pragma wal_checkpoint(truncate)`.execute(db);
  return values.map((v) => v.value);
}
