import { sha256Hex } from "../crypto/secrets.js";
import { namedClientId } from "./client-authentication.js";
import { stringParam } from "./params.js";
import type { ClientStore, ReadAhead, ReadAheadFound, ReadAheadPlan, TokenLookups } from "./ports.js";
import type { TokenRequest } from "./token-request.js";

/**
 * The token endpoint reads the client a request names and the code or refresh token it presents in
 * one statement (TokenLookups), with the throttle's reservation where the database can. Nothing is
 * decided on the read: client authentication and the grant run their checks in their order, each
 * on the row it would have read itself, found here instead of asked for. (The artefact's row is
 * read before the client's secret is compared; reading it has no effect, and a request that fails
 * authentication never looks at it.)
 */

/** The plan for a code exchange or a refresh that names a client; undefined for anything else. */
export function readAheadPlan(request: TokenRequest): ReadAheadPlan | undefined {
  const grantType = stringParam(request.body, "grant_type");
  const clientId = namedClientId(request);
  if (clientId === undefined) return undefined;
  const code = grantType === "authorization_code" ? stringParam(request.body, "code") : undefined;
  if (code !== undefined) return { clientId, codeHash: sha256Hex(code) };
  const token = grantType === "refresh_token" ? stringParam(request.body, "refresh_token") : undefined;
  if (token !== undefined) return { clientId, refreshTokenHash: sha256Hex(token) };
  return undefined;
}

/** The read-ahead a plan and what was found for it make. */
export function readAheadOf(plan: ReadAheadPlan, found: ReadAheadFound): ReadAhead {
  const ahead: ReadAhead = { clientId: plan.clientId, client: found?.client };
  if (!found) return ahead;
  if ("codeHash" in plan) ahead.code = { hash: plan.codeHash, record: found.code };
  else ahead.refreshToken = { hash: plan.refreshTokenHash, record: found.refreshToken };
  return ahead;
}

/** The read for a code exchange or a refresh that names a client; undefined for anything else. */
export async function readAhead(lookups: TokenLookups, request: TokenRequest): Promise<ReadAhead | undefined> {
  const plan = readAheadPlan(request);
  if (!plan) return undefined;
  const found =
    "codeHash" in plan
      ? await lookups.clientWithCode(plan.clientId, plan.codeHash)
      : await lookups.clientWithRefreshToken(plan.clientId, plan.refreshTokenHash);
  return readAheadOf(plan, found);
}

/** The client store as client authentication sees it: the client read ahead, else the store. */
export function clientsWithReadAhead(clients: ClientStore, ahead: ReadAhead | undefined): Pick<ClientStore, "findByClientId"> {
  if (!ahead) return clients;
  return {
    findByClientId: (clientId) =>
      clientId === ahead.clientId ? Promise.resolve(ahead.client) : clients.findByClientId(clientId),
  };
}
