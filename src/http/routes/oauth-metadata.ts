import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CHALLENGE_METHODS } from "../../oauth/domain/pkce.js";
import { providerMetadata } from "../../oidc/discovery.js";
import { baseUrl, cacheByBaseUrl } from "../base-url.js";
import { registrationEnabled } from "../dynamic-registration.js";
import { ISSUER_PATH, issuerOf } from "../issuer.js";
import {
  AUTHORIZE_PATH,
  DEVICE_AUTHORIZATION_PATH,
  END_SESSION_PATH,
  INTROSPECTION_PATH,
  JWKS_PATH,
  REGISTRATION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from "../oauth-paths.js";
import { metadataRouteSchema } from "../schemas/oauth.js";

export const METADATA_PATH = "/.well-known/oauth-authorization-server";
/** RFC 8414 §3: the well-known segment inserted between the host and the issuer's path. */
export const PATH_INSERTED_METADATA_PATH = `${METADATA_PATH}${ISSUER_PATH}`;
/** OpenID Connect Discovery 1.0 §4: the issuer with `/.well-known/openid-configuration` appended. */
export const OPENID_CONFIGURATION_PATH = `${ISSUER_PATH}/.well-known/openid-configuration`;
export const ROOT_OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration";

function metadataOf(request: FastifyRequest): Record<string, unknown> {
  const base = baseUrl(request);
  return providerMetadata(
    {
      issuer: issuerOf(request),
      authorization: `${base}${AUTHORIZE_PATH}`,
      token: `${base}${TOKEN_PATH}`,
      userinfo: `${base}${USERINFO_PATH}`,
      revocation: `${base}${REVOCATION_PATH}`,
      introspection: `${base}${INTROSPECTION_PATH}`,
      deviceAuthorization: `${base}${DEVICE_AUTHORIZATION_PATH}`,
      jwks: `${base}${JWKS_PATH}`,
      endSession: `${base}${END_SESSION_PATH}`,
      registration: registrationEnabled(request.server) ? `${base}${REGISTRATION_PATH}` : undefined,
    },
    CHALLENGE_METHODS,
  );
}

function sendMetadata(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return cacheByBaseUrl(request, reply, 3600).send(metadataOf(request));
}

/**
 * RFC 8414 authorization server metadata and the OpenID Provider Configuration: one document
 * (src/oidc/discovery.ts), so they always agree. The issuer is `<base URL>/index.php/apps/oauth2`
 * (http/issuer.ts); the base URL is `overwrite.cli.url`, else the request's scheme and host, the
 * same value sent as `iss` in authorization responses (RFC 9207) and ID tokens.
 * Publicly cacheable only when `overwrite.cli.url` fixes it (`cacheByBaseUrl`).
 *
 * Where it is served:
 * - `/.well-known/oauth-authorization-server`: where clients and operators found it before the
 *   issuer had a path, kept;
 * - `/.well-known/oauth-authorization-server/index.php/apps/oauth2`: RFC 8414 §3 for this issuer;
 * - `/index.php/apps/oauth2/.well-known/openid-configuration`: OpenID Discovery §4 for this issuer;
 * - `/.well-known/openid-configuration` only with the host setting `oidc.root_discovery`: the ownCloud
 *   desktop client switches to an OIDC mode when that document exists
 *   (docs/upstream/desktop-clients.md, ownCloud client §2), so by default the root answers 404.
 *   The same document everywhere: with `oidc.dynamic_registration` on, each names the
 *   `registration_endpoint` the desktop client registers itself at (ownCloud client §6).
 */
export async function oauthMetadataRoutes(app: FastifyInstance): Promise<void> {
  app.get(METADATA_PATH, { schema: metadataRouteSchema }, sendMetadata);
  app.get(PATH_INSERTED_METADATA_PATH, { schema: metadataRouteSchema }, sendMetadata);
  app.get(OPENID_CONFIGURATION_PATH, { schema: metadataRouteSchema }, sendMetadata);
  app.get(ROOT_OPENID_CONFIGURATION_PATH, { schema: metadataRouteSchema }, async (request, reply) => {
    if (!app.services.settings.get("oidc.root_discovery")) return reply.callNotFound();
    return sendMetadata(request, reply);
  });
}
