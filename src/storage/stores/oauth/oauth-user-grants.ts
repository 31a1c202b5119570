import type { ExpressionBuilder } from "kysely";
import type { AuthorizedClient } from "../../../oauth/ports.js";
import type { Database, Db } from "../../driver/database.js";

/**
 * The reads of one user's grants (personal settings' list of applications, and what the user
 * consented to). A grant is live while it has an unconsumed, unexpired code, an unexpired access
 * token or an unrotated, unexpired refresh token: revoking it, or the cleanup, ends it.
 */
function liveGrant(eb: ExpressionBuilder<Database & { g: Database["oauth2_grants"] }, "g">, now: number) {
  return eb.or([
    eb.exists(
      eb
        .selectFrom("oauth2_codes as k")
        .select("k.grant_id")
        .whereRef("k.grant_id", "=", "g.id")
        .where("k.consumed_at", "is", null)
        .where("k.expires_at", ">", now),
    ),
    eb.exists(
      eb
        .selectFrom("oauth2_access_tokens as a")
        .select("a.grant_id")
        .whereRef("a.grant_id", "=", "g.id")
        .where("a.expires_at", ">", now),
    ),
    eb.exists(
      eb
        .selectFrom("oauth2_refresh_tokens as r")
        .select("r.grant_id")
        .whereRef("r.grant_id", "=", "g.id")
        .where("r.rotated_at", "is", null)
        .where("r.expires_at", ">", now),
    ),
  ]);
}

export async function authorizedClients(db: Db, uid: string, now: number): Promise<AuthorizedClient[]> {
  const rows = await db
    .selectFrom("oauth2_grants as g")
    .innerJoin("oauth2_clients as c", "c.id", "g.client_id")
    .select(["c.id", "c.client_id", "c.name"])
    .select((eb) => eb.fn.min("g.authorized_at").as("granted_at"))
    .where("g.uid", "=", uid)
    .where((eb) => liveGrant(eb, now))
    .groupBy(["c.id", "c.client_id", "c.name"])
    .orderBy("c.name")
    .execute();
  const lastUse = await lastTokenIssuedPerClient(db, uid);
  return rows.map((r) => ({
    id: Number(r.id),
    clientId: r.client_id,
    name: r.name,
    grantedAt: Number(r.granted_at),
    lastUsedAt: lastUse.get(Number(r.id)) ?? null,
  }));
}

/** The scopes of the user's live grants of one client (GrantStore.liveGrantScopes). */
export async function liveGrantScopes(db: Db, uid: string, clientInternalId: number, now: number): Promise<string[]> {
  const rows = await db
    .selectFrom("oauth2_grants as g")
    .select("g.scope")
    .where("g.uid", "=", uid)
    .where("g.client_id", "=", clientInternalId)
    .where((eb) => liveGrant(eb, now))
    .execute();
  return rows.map((row) => row.scope ?? "");
}

/** Per client, the newest access or refresh token issued under `uid`'s grants (issue or refresh). */
async function lastTokenIssuedPerClient(db: Db, uid: string): Promise<Map<number, number>> {
  const newest = new Map<number, number>();
  const issued = [
    await db
      .selectFrom("oauth2_grants as g")
      .innerJoin("oauth2_access_tokens as t", "t.grant_id", "g.id")
      .select("g.client_id")
      .select((eb) => eb.fn.max("t.created_at").as("issued_at"))
      .where("g.uid", "=", uid)
      .groupBy("g.client_id")
      .execute(),
    await db
      .selectFrom("oauth2_grants as g")
      .innerJoin("oauth2_refresh_tokens as t", "t.grant_id", "g.id")
      .select("g.client_id")
      .select((eb) => eb.fn.max("t.created_at").as("issued_at"))
      .where("g.uid", "=", uid)
      .groupBy("g.client_id")
      .execute(),
  ].flat();
  for (const row of issued) {
    const clientId = Number(row.client_id);
    const issuedAt = Number(row.issued_at);
    newest.set(clientId, Math.max(newest.get(clientId) ?? issuedAt, issuedAt));
  }
  return newest;
}
