import { sha256Hex } from "../crypto/secrets.js";
import { authenticateRequestClient } from "./client-authentication.js";
import { OAuthError } from "./domain/errors.js";
import { stringParam } from "./params.js";
import type { ClientStore, GrantStore } from "./ports.js";
import type { EventLog, TokenRequest } from "./token-request.js";

const notYours = () => new OAuthError("invalid_request", "the token was not issued to this client");

/**
 * RFC 7009 token revocation (`POST …/api/v1/revoke`):
 * - the client authenticates as at the token endpoint (Basic, or a public client's client_id);
 * - `token` is required; `token_type_hint` only decides which kind is looked up first (§2.1);
 * - an access token is deleted; a refresh token (live or already rotated) revokes its whole grant,
 *   so every token descending from the same authorization dies (§2.1 "SHOULD also invalidate");
 * - a token of another client is refused (§2.1); an unknown token is answered 200 like a revoked one
 *   (§2.2), so a client cannot probe which tokens exist.
 */
export async function revokeToken(
  clients: ClientStore,
  grants: GrantStore,
  log: Pick<EventLog, "info">,
  request: TokenRequest,
): Promise<OAuthError | undefined> {
  const authenticated = await authenticateRequestClient(clients, request);
  if (authenticated instanceof OAuthError) return authenticated;
  const token = stringParam(request.body, "token");
  if (token === undefined || token === "") return new OAuthError("invalid_request", "the token parameter is required");
  const hash = sha256Hex(token);
  const client = authenticated.client;

  const revokeAccess = async (): Promise<OAuthError | boolean> => {
    const access = await grants.findAccessToken(hash);
    if (!access) return false;
    if (access.clientId !== client.clientId) return notYours();
    await grants.revokeAccessToken(access.id);
    log.info({ event: "oauth2_token_revoked", client: client.clientId, uid: access.uid, kind: "access" }, "access token revoked");
    return true;
  };
  const revokeRefresh = async (): Promise<OAuthError | boolean> => {
    const refresh = await grants.findRefreshToken(hash);
    if (!refresh) return false;
    if (refresh.clientInternalId !== client.id) return notYours();
    if (authenticated.method === "none" && !refresh.publicClient) {
      return new OAuthError("invalid_client", undefined, { detail: "this grant needs client authentication" });
    }
    await grants.revokeGrant(refresh.grantId);
    log.info(
      { event: "oauth2_token_revoked", client: client.clientId, uid: refresh.uid, kind: "refresh", grant: refresh.grantId },
      "refresh token revoked with its grant",
    );
    return true;
  };

  const order =
    stringParam(request.body, "token_type_hint") === "refresh_token"
      ? [revokeRefresh, revokeAccess]
      : [revokeAccess, revokeRefresh];
  for (const attempt of order) {
    const outcome = await attempt();
    if (outcome instanceof OAuthError) return outcome;
    if (outcome) return undefined;
  }
  return undefined;
}
