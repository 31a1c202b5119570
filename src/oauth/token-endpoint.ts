import { authenticateRequestClient } from "./client-authentication.js";
import { OAuthError } from "./domain/errors.js";
import { GRANTS } from "./grants/index.js";
import type { GrantDeps } from "./grants/types.js";
import type { ClientStore, TokenLookups } from "./ports.js";
import { clientsWithReadAhead, readAhead } from "./read-ahead.js";
import { stringParam, type TokenRequest } from "./token-request.js";
import type { TokenResponse } from "./tokens.js";

export type { TokenRequest } from "./token-request.js";

/**
 * `POST …/api/v1/token` (research A.1.2): grant_type present, then client authentication, then the
 * grant, which receives only the parameters it declares.
 */
export async function handleTokenRequest(
  clients: ClientStore,
  deps: GrantDeps,
  request: TokenRequest,
  lookups?: TokenLookups,
): Promise<TokenResponse | OAuthError> {
  const grantType = stringParam(request.body, "grant_type");
  if (grantType === undefined) return new OAuthError("invalid_request");
  // The client and the presented code or refresh token in one read (issue 17), used as it comes.
  // Read with the throttle's reservation (PostgreSQL, OAuthService.readAheadRider), or now.
  const ahead = request.readAhead ?? (lookups && (await readAhead(lookups, request)));
  const authenticated = await authenticateRequestClient(clientsWithReadAhead(clients, ahead), request);
  if (authenticated instanceof OAuthError) return authenticated;
  const grant = GRANTS.get(grantType);
  if (!grant) return new OAuthError("invalid_grant", "unhandled grant type");
  const params = Object.fromEntries([...grant.parameters].map((name) => [name, stringParam(request.body, name)]));
  return grant.handle(deps, {
    client: authenticated.client,
    method: authenticated.method,
    params,
    userAgent: request.userAgent,
    origin: request.origin,
    withIssue: request.withIssue,
    readAhead: ahead,
  });
}
