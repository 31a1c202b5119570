import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OAuthError } from "../../oauth/domain/errors.js";
import { baseUrl } from "../base-url.js";
import { noStore, sendTokenError } from "../oauth-errors.js";
import { requireUser } from "../plugins/authentication.js";
import { avatarUrl } from "./avatars.js";
import { AUTHORIZATION_SUCCESSFUL_PATH } from "./oauth-authorize.js";

const API_PREFIX = "/index.php/apps/oauth2/api/v1";
const CORS_METHODS = "PUT, POST, GET, DELETE, PATCH";
const CORS_HEADERS = "Authorization, Content-Type, Accept";

/**
 * research A.10: CORS headers on the token and userinfo answers only for an origin listed in
 * `cors.allowed-domains`.
 */
function allowListedOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (typeof origin !== "string") return;
  const allowed = request.server.services.settings.get("cors.allowed-domains").split(",").filter(Boolean);
  if (!allowed.includes(origin)) return;
  reply
    .header("access-control-allow-origin", origin)
    .header("access-control-allow-methods", CORS_METHODS)
    .header("access-control-allow-headers", CORS_HEADERS)
    .header("access-control-expose-headers", "WWW-Authenticate")
    .header("vary", "Origin");
}

/** Token endpoint, UserInfo and their CORS preflight. */
export async function oauthApiRoutes(app: FastifyInstance): Promise<void> {
  const { oauth, avatars } = app.services;

  app.post(`${API_PREFIX}/token`, async (request, reply) => {
    allowListedOrigin(request, reply);
    const body = request.body;
    const result = await oauth.token({
      body: body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {},
      authorization: request.headers.authorization,
      userAgent: request.headers["user-agent"],
    });
    if (result instanceof OAuthError) {
      request.log.debug({ event: "oauth2_token_refused", error: result.code, detail: result.detail }, "token request refused");
      return sendTokenError(reply, result);
    }
    return noStore(reply).send({ ...result, message_url: `${baseUrl(request)}${AUTHORIZATION_SUCCESSFUL_PATH}` });
  });

  // research A.7: sub, picture (only with an avatar), name, email (when set), in this order.
  app.get(`${API_PREFIX}/userinfo`, async (request, reply) => {
    allowListedOrigin(request, reply);
    const principal = await requireUser(request, reply);
    if (!principal) return;
    const { user } = principal;
    const extension = await avatars.extensionOf(user.uid);
    return noStore(reply).send({
      sub: user.uid,
      ...(extension === undefined ? {} : { picture: avatarUrl(request, user.uid, extension) }),
      name: user.displayName,
      ...(user.email === null ? {} : { email: user.email }),
    });
  });

  // research A.10: the preflight answers any path under api/v1.
  app.options(`${API_PREFIX}/*`, async (request, reply) => {
    const origin = request.headers.origin;
    return reply
      .status(200)
      .header("access-control-allow-origin", typeof origin === "string" ? origin : "*")
      .header("access-control-allow-methods", CORS_METHODS)
      .header("access-control-max-age", "1728000")
      .header("access-control-allow-headers", CORS_HEADERS)
      .header("access-control-allow-credentials", "false")
      .send();
  });
}
