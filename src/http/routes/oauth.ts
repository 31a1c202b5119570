import type { FastifyInstance } from "fastify";
import { avatarRoutes } from "./avatars.js";
import { oauthApiRoutes } from "./oauth-api.js";
import { oauthAuthorizeRoutes } from "./oauth-authorize.js";
import { oauthDeviceRoutes } from "./oauth-device.js";
import { oauthMetadataRoutes } from "./oauth-metadata.js";
import { oauthRegistrationRoutes } from "./oauth-registration.js";
import { oidcRoutes } from "./oidc.js";

/**
 * Everything the OAuth 2.0 service serves (`/index.php/apps/oauth2/...`), its RFC 8414 metadata,
 * the OpenID Connect endpoints (JWKS, logout), plus user avatars.
 */
export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  await app.register(oauthAuthorizeRoutes);
  await app.register(oauthApiRoutes);
  await app.register(oauthDeviceRoutes);
  await app.register(oauthMetadataRoutes);
  await app.register(oauthRegistrationRoutes);
  await app.register(oidcRoutes);
  await app.register(avatarRoutes);
}
