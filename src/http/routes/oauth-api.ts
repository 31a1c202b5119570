import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GRANTS } from "../../oauth/grants/index.js";
import { stringParam } from "../../oauth/params.js";
import { avatarUrl } from "../avatar-url.js";
import { baseUrl } from "../base-url.js";
import { originOf } from "../issuer.js";
import { answerClientRequest, clientEndpoint, parseClientRequest } from "../oauth-client-endpoint.js";
import { noStore } from "../oauth-errors.js";
import {
  API_PREFIX,
  AUTHORIZATION_SUCCESSFUL_PATH,
  INTROSPECTION_PATH,
  REVOCATION_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
} from "../oauth-paths.js";
import { principalAllows, requireUser, sendInsufficientScope } from "../plugins/authentication.js";
import {
  introspectionRouteSchema,
  preflightRouteSchema,
  revocationRouteSchema,
  tokenRouteSchema,
  userInfoPostRouteSchema,
  userInfoRouteSchema,
} from "../schemas/oauth.js";
import { oauthBuckets, RequestPacing } from "../throttling.js";

const CORS_METHODS = "PUT, POST, GET, DELETE, PATCH";
const CORS_HEADERS = "Authorization, Content-Type, Accept";

/**
 * docs/upstream/owncloud-oauth2.md A.10: CORS headers on the token and userinfo answers only for an origin listed in
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

/**
 * The grant_type label of a token request's metrics: a grant the endpoint handles (oauth/grants),
 * else "other" (or "none" when absent), so that a client cannot add series.
 */
function grantTypeLabel(body: unknown): string {
  const value = (body as Record<string, unknown> | undefined)?.grant_type;
  if (typeof value !== "string") return "none";
  return GRANTS.has(value) ? value : "other";
}

/**
 * RFC 6750 §2.2: a form body's `access_token` when the request has no Authorization header, given
 * to the authentication chain as the Bearer header it stands for (§2.2 allows one method per request).
 */
async function bearerFromBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  const token =
    body !== null && typeof body === "object" ? stringParam(body as Record<string, unknown>, "access_token") : undefined;
  if (token !== undefined && request.headers.authorization === undefined) request.headers.authorization = `Bearer ${token}`;
}

/** Token endpoint, UserInfo, revocation (RFC 7009), introspection (RFC 7662) and the CORS preflight. */
export async function oauthApiRoutes(app: FastifyInstance): Promise<void> {
  const { oauth, avatars, metrics, tokenThrottle } = app.services;

  app.post(TOKEN_PATH, { schema: tokenRouteSchema, attachValidation: true }, async (request, reply) => {
    allowListedOrigin(request, reply);
    const parsed = parseClientRequest(request);
    const answer = await oauth.tokenEndpoint(
      parsed,
      oauthBuckets(request),
      new RequestPacing(request, tokenThrottle.policy.namespace),
    );
    const outcome = answerClientRequest(request, reply, parsed, answer, (result) =>
      metrics.tokenRequest(grantTypeLabel(request.body), result),
    );
    if (!outcome) return reply;
    const { response } = outcome.result;
    return noStore(reply).send({ ...response, message_url: `${baseUrl(request)}${AUTHORIZATION_SUCCESSFUL_PATH}` });
  });

  // RFC 7009 §2.2: 200 with an empty body, whether the token existed or not.
  app.post(REVOCATION_PATH, { schema: revocationRouteSchema, attachValidation: true }, async (request, reply) => {
    allowListedOrigin(request, reply);
    const outcome = await clientEndpoint(request, reply, {
      run: async (r) => (await oauth.revokeToken(r)) ?? ("revoked" as const),
    });
    if (!outcome) return reply;
    return noStore(reply).status(200).send();
  });

  app.post(INTROSPECTION_PATH, { schema: introspectionRouteSchema, attachValidation: true }, async (request, reply) => {
    const outcome = await clientEndpoint(request, reply, { run: (r) => oauth.introspect(r) });
    if (!outcome) return reply;
    return noStore(reply).send(outcome.result);
  });

  // docs/upstream/owncloud-oauth2.md A.7: sub, picture (only with an avatar), name, email (when set), in this order; for a
  // token whose grant had `openid`, the claims its scope grants (OIDC Core §5.3, src/oidc/claims.ts).
  const userInfo = async (request: FastifyRequest, reply: FastifyReply) => {
    allowListedOrigin(request, reply);
    const principal = await requireUser(request, reply);
    if (!principal) return;
    if (!principalAllows(principal, "openid")) return sendInsufficientScope(reply, "openid");
    const { user } = principal;
    const openIdClaims =
      principal.method === "bearer"
        ? await app.services.oidc.userInfo(user, principal.scope ?? null, originOf(request), principal.avatarExtension)
        : undefined;
    if (openIdClaims) return noStore(reply).send(openIdClaims);
    // A bearer token's statement read the avatar's extension already.
    const extension =
      principal.avatarExtension === undefined ? await avatars.extensionOf(user.uid) : (principal.avatarExtension ?? undefined);
    return noStore(reply).send({
      sub: user.uid,
      ...(extension === undefined ? {} : { picture: avatarUrl(request, user.uid, extension) }),
      name: user.displayName,
      ...(user.email === null ? {} : { email: user.email }),
    });
  };
  app.get(USERINFO_PATH, { schema: userInfoRouteSchema }, userInfo);
  // OIDC Core §5.3.1: UserInfo by POST too, the access token in the Authorization header or, RFC
  // 6750 §2.2, as the form body's `access_token` (read as if it were the header: one chain decides).
  app.post(USERINFO_PATH, { schema: userInfoPostRouteSchema, preValidation: bearerFromBody }, userInfo);

  // docs/upstream/owncloud-oauth2.md A.10: the preflight answers any path under api/v1.
  app.options(`${API_PREFIX}/*`, { schema: preflightRouteSchema }, async (request, reply) => {
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
