import { authenticateClient } from "./client-authentication.js";
import { OAuthError } from "./domain/errors.js";
import { GRANTS } from "./grants/index.js";
import type { GrantDeps } from "./grants/types.js";
import type { ClientStore } from "./ports.js";
import type { TokenResponse } from "./tokens.js";

export interface TokenRequest {
  /** The form body; the HTTP layer has refused repeated and non-string parameters (http/oauth-params.ts). */
  body: Record<string, unknown>;
  authorization: string | undefined;
  userAgent: string | undefined;
}

function stringParam(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * `POST …/api/v1/token` (research A.1.2): grant_type present, then client authentication, then the
 * grant, which receives only the parameters it declares.
 */
export async function handleTokenRequest(
  clients: ClientStore,
  deps: GrantDeps,
  request: TokenRequest,
): Promise<TokenResponse | OAuthError> {
  const grantType = stringParam(request.body, "grant_type");
  if (grantType === undefined) return new OAuthError("invalid_request");
  const authenticated = await authenticateClient(
    clients,
    {
      client_id: stringParam(request.body, "client_id"),
      client_secret: stringParam(request.body, "client_secret"),
      code_verifier: stringParam(request.body, "code_verifier"),
    },
    request.authorization,
  );
  if (authenticated instanceof OAuthError) return authenticated;
  const grant = GRANTS.get(grantType);
  if (!grant) return new OAuthError("invalid_grant", "unhandled grant type");
  const params = Object.fromEntries([...grant.parameters].map((name) => [name, stringParam(request.body, name)]));
  return grant.handle(deps, {
    client: authenticated.client,
    method: authenticated.method,
    params,
    userAgent: request.userAgent,
  });
}
