import type { FastifyRequest } from "fastify";
import type { RequestOrigin } from "../oauth/ports.js";
import { baseUrl } from "./base-url.js";

/**
 * The issuer's path under the base URL. The issuer identifier is
 * `<base URL>/index.php/apps/oauth2`, not the base URL itself: OpenID Discovery §4 puts the provider
 * configuration under the issuer, so it lives below the oauth2 app and the account root keeps
 * answering 404 to `/.well-known/openid-configuration`, which the ownCloud desktop client reads as
 * "not OIDC" (docs/upstream/desktop-clients.md, ownCloud client §2).
 */
export const ISSUER_PATH = "/index.php/apps/oauth2";

/** RFC 9207 / RFC 8414 / OIDC Core `iss`: one value for the metadata, authorization responses and ID tokens. */
export function issuerOf(request: FastifyRequest): string {
  return `${baseUrl(request)}${ISSUER_PATH}`;
}

/** The issuer and base URL a request was addressed to, for the OAuth service. */
export function originOf(request: FastifyRequest): RequestOrigin {
  const base = baseUrl(request);
  return { issuer: `${base}${ISSUER_PATH}`, baseUrl: base };
}
