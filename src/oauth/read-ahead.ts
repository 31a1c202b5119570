import { sha256Hex } from "../crypto/secrets.js";
import { namedClientId } from "./client-authentication.js";
import type { ClientStore, CodeRecord, OAuthClient, RefreshTokenRecord, TokenLookups } from "./ports.js";
import { stringParam, type TokenRequest } from "./token-request.js";

/**
 * The token endpoint reads the client a request names and the code or refresh token it presents in
 * one statement (TokenLookups, issue 17: on PostgreSQL one round trip fewer per exchange and per
 * rotation). Nothing is decided on the read: client authentication and the grant run the same
 * checks in the same order as before, each on the row it would have read itself, found here
 * instead of asked for. (The artefact's row is read before the client's secret is compared; reading
 * it has no effect, and a request that fails authentication never looks at it.)
 */
export interface ReadAhead {
  clientId: string;
  client: OAuthClient | undefined;
  /** The presented code's hash and its row; absent when no code was read. */
  code?: { hash: string; record: CodeRecord | undefined };
  /** The presented refresh token's hash and its row; absent when none was read. */
  refreshToken?: { hash: string; record: RefreshTokenRecord | undefined };
}

/** What to read ahead: the client a request names and the hash of the code or refresh token it presents. */
export type ReadAheadPlan = { clientId: string } & ({ codeHash: string } | { refreshTokenHash: string });

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

/** What TokenLookups found for a plan (undefined: no such client, the artefact not looked at). */
export type ReadAheadFound =
  | { client: OAuthClient; code?: CodeRecord | undefined; refreshToken?: RefreshTokenRecord | undefined }
  | undefined;

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
