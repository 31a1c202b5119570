import { authenticateRequestClient } from "./client-authentication.js";
import { OAuthError } from "./domain/errors.js";
import { GRANTS } from "./grants/index.js";
import type { GrantDeps, GrantResult } from "./grants/types.js";
import { stringParam } from "./params.js";
import type { ClientStore, TokenLookups } from "./ports.js";
import { clientsWithReadAhead, readAhead } from "./read-ahead.js";
import { markRegisteredClientUsed } from "./registration.js";
import type { TokenAdmission, TokenRequest } from "./token-request.js";

export type { TokenRequest } from "./token-request.js";

/**
 * `POST …/api/v1/token` after its throttle reservation (docs/upstream/owncloud-oauth2.md A.1.2;
 * the steps as node-oidc-provider's lib/actions/token.js composes them):
 * 1. the grant type is present;
 * 2. the client and the presented code or refresh token, read with the reservation or now;
 * 3. client authentication;
 * 4. the grant, given only the parameters it declares; its write commits the admission's
 *    throttle settlement when it issues tokens;
 * 5. for a self-registered client, its use recorded (registration.ts).
 */
export async function handleTokenRequest(
  clients: ClientStore,
  lookups: TokenLookups,
  deps: GrantDeps,
  request: TokenRequest,
  admission: TokenAdmission = {},
): Promise<GrantResult> {
  const grantType = stringParam(request.body, "grant_type");
  if (grantType === undefined) return new OAuthError("invalid_request");
  const ahead = admission.readAhead ?? (await readAhead(lookups, request));
  const authenticated = await authenticateRequestClient(clientsWithReadAhead(clients, ahead), request);
  if (authenticated instanceof OAuthError) return authenticated;
  const grant = GRANTS.get(grantType);
  if (!grant) return new OAuthError("invalid_grant", "unhandled grant type");
  const params = Object.fromEntries([...grant.parameters].map((name) => [name, stringParam(request.body, name)]));
  const result = await grant.handle(deps, {
    client: authenticated.client,
    method: authenticated.method,
    params,
    userAgent: request.userAgent,
    origin: request.origin,
    readAhead: ahead,
    settleOnIssue: admission.settleOnIssue,
  });
  if (!(result instanceof OAuthError)) {
    // A use of a self-registered client (RFC 7591), for the cleanup of unused ones. The tokens are
    // issued by now: a failed write is logged, never turned into a failed response.
    await markRegisteredClientUsed(clients, authenticated.client, deps.now).catch((error: unknown) => {
      deps.log.warn(
        { event: "oauth2_client_use_not_recorded", client: authenticated.client.clientId, err: error },
        "client use not recorded",
      );
    });
  }
  return result;
}
