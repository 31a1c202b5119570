import { sha256Hex } from "../security/secrets.js";
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

/** The read for a code exchange or a refresh that names a client; undefined for anything else. */
export async function readAhead(lookups: TokenLookups, grantType: string, request: TokenRequest): Promise<ReadAhead | undefined> {
  const clientId = namedClientId(request);
  if (clientId === undefined) return undefined;
  const code = grantType === "authorization_code" ? stringParam(request.body, "code") : undefined;
  if (code !== undefined) {
    const hash = sha256Hex(code);
    const found = await lookups.clientWithCode(clientId, hash);
    return { clientId, client: found?.client, ...(found ? { code: { hash, record: found.code } } : {}) };
  }
  const token = grantType === "refresh_token" ? stringParam(request.body, "refresh_token") : undefined;
  if (token !== undefined) {
    const hash = sha256Hex(token);
    const found = await lookups.clientWithRefreshToken(clientId, hash);
    return { clientId, client: found?.client, ...(found ? { refreshToken: { hash, record: found.refreshToken } } : {}) };
  }
  return undefined;
}

/** The client store as client authentication sees it: the client read ahead, else the store. */
export function clientsWithReadAhead(clients: ClientStore, ahead: ReadAhead | undefined): Pick<ClientStore, "findByClientId"> {
  if (!ahead) return clients;
  return {
    findByClientId: (clientId) =>
      clientId === ahead.clientId ? Promise.resolve(ahead.client) : clients.findByClientId(clientId),
  };
}
