import type { FastifyInstance } from "fastify";
import { CHALLENGE_METHODS } from "../../oauth/domain/pkce.js";
import { baseUrl, cacheByBaseUrl } from "../base-url.js";
import { metadataRouteSchema } from "../schemas/oauth.js";
import { INTROSPECTION_PATH, REVOCATION_PATH, TOKEN_PATH, USERINFO_PATH } from "./oauth-api.js";
import { AUTHORIZE_PATH } from "./oauth-authorize.js";

export const METADATA_PATH = "/.well-known/oauth-authorization-server";

/**
 * RFC 8414 authorization server metadata. Advertises only what the endpoints accept (a test walks
 * this document and calls each). The issuer is the base URL (`overwrite.cli.url`, else the request's
 * scheme and host), the same value sent as `iss` in authorization responses (RFC 9207). Publicly
 * cacheable only when `overwrite.cli.url` fixes it (`cacheByBaseUrl`).
 *
 * Deliberately absent: `/.well-known/openid-configuration`. Keystream issues no ID tokens, and the
 * ownCloud desktop client switches to an OIDC mode that breaks its login when that document exists
 * (research owncloud-desktop-client.md §2). No `scopes_supported`: scopes are accepted and ignored.
 */
export async function oauthMetadataRoutes(app: FastifyInstance): Promise<void> {
  app.get(METADATA_PATH, { schema: metadataRouteSchema }, async (request, reply) => {
    const issuer = baseUrl(request);
    return cacheByBaseUrl(request, reply, 3600).send({
      issuer,
      authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
      token_endpoint: `${issuer}${TOKEN_PATH}`,
      userinfo_endpoint: `${issuer}${USERINFO_PATH}`,
      revocation_endpoint: `${issuer}${REVOCATION_PATH}`,
      introspection_endpoint: `${issuer}${INTROSPECTION_PATH}`,
      response_types_supported: ["code", "token"],
      response_modes_supported: ["query", "fragment"],
      grant_types_supported: ["authorization_code", "refresh_token", "implicit"],
      code_challenge_methods_supported: [...CHALLENGE_METHODS],
      // `none`: a public client (client_id with PKCE, or client_id alone on a PKCE grant's refresh).
      token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
      revocation_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
      introspection_endpoint_auth_methods_supported: ["client_secret_basic"],
      authorization_response_iss_parameter_supported: true,
    });
  });
}
