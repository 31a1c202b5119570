import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OAuthError } from "../../oauth/domain/errors.js";
import { GRANTS } from "../../oauth/grants/index.js";
import type { ReadAhead } from "../../oauth/read-ahead.js";
import type { TokenRequest } from "../../oauth/token-endpoint.js";
import type { AttemptOutcome, ReservationRider } from "../../security/throttle.js";
import { eventLogOf } from "../access-log.js";
import { baseUrl } from "../base-url.js";
import { originOf } from "../issuer.js";
import { noStore, sendTokenError, sendTooManyAttempts } from "../oauth-errors.js";
import { parametersOf } from "../oauth-params.js";
import { requireUser } from "../plugins/authentication.js";
import {
  introspectionRouteSchema,
  preflightRouteSchema,
  revocationRouteSchema,
  tokenRouteSchema,
  userInfoRouteSchema,
} from "../schemas/oauth.js";
import { oauthBuckets, throttledAttempt } from "../throttling.js";
import { avatarUrl } from "./avatars.js";
import { AUTHORIZATION_SUCCESSFUL_PATH } from "./oauth-authorize.js";

export const API_PREFIX = "/index.php/apps/oauth2/api/v1";
export const TOKEN_PATH = `${API_PREFIX}/token`;
export const USERINFO_PATH = `${API_PREFIX}/userinfo`;
export const REVOCATION_PATH = `${API_PREFIX}/revoke`;
export const INTROSPECTION_PATH = `${API_PREFIX}/introspect`;
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

/** What guessing produces (unknown client, wrong secret, unknown code or token) slows down the next attempt. */
function countsAsFailure(error: OAuthError): boolean {
  return error.guess;
}

type ClientEndpoint<T> = (request: TokenRequest) => Promise<T | OAuthError>;

/** How an answered client-endpoint request ended: "success", an RFC 6749 error code, or "throttled". */
type EndpointOutcome = (outcome: string) => void;

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
 * The shared frame of the client endpoints (token, revoke, introspect): the attempt reserved in
 * the per-IP throttle before anything is checked (429 + Retry-After past the ceiling), strict
 * parameters (the route's body schema; a repeated or non-string one is 400 invalid_request, not
 * counted), the call, guesses
 * counted and a success resetting the count; errors in the RFC 6749 §5.2 form, never cached.
 */
async function clientEndpoint<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  handle: ClientEndpoint<T>,
  onOutcome?: EndpointOutcome,
  readAhead?: (request: TokenRequest) => Promise<ReservationRider<ReadAhead> | undefined>,
): Promise<{ result: T } | undefined> {
  const { tokenThrottle } = request.server.services;
  const buckets = oauthBuckets(request);
  const params = parametersOf(request.body, request.validationError?.validation);
  const clientRequest: TokenRequest | OAuthError = params.ok
    ? {
        body: params.params,
        authorization: request.headers.authorization,
        userAgent: request.headers["user-agent"],
        log: eventLogOf(request),
        origin: originOf(request),
      }
    : new OAuthError("invalid_request", params.description, { detail: params.detail });
  // The token endpoint's first read rides on the reservation's statement where the storage can (issue 17).
  const rider = readAhead && !(clientRequest instanceof OAuthError) ? await readAhead(clientRequest) : undefined;
  const gate = await throttledAttempt(
    request,
    tokenThrottle,
    buckets,
    async (settleWith, read: ReadAhead | undefined) =>
      clientRequest instanceof OAuthError
        ? clientRequest
        : handle({
            ...clientRequest,
            // Issued tokens are a success (below): settled in the issue's own transaction (issue 17).
            ...(settleWith ? { withIssue: settleWith({ kind: "success", reset: buckets }) } : {}),
            ...(read ? { readAhead: read } : {}),
          }),
    (outcome): AttemptOutcome =>
      !(outcome instanceof OAuthError)
        ? { kind: "success", reset: buckets }
        : countsAsFailure(outcome)
          ? { kind: "failure" }
          : { kind: "uncounted" },
    rider,
  );
  if (gate.refused) {
    onOutcome?.("throttled");
    sendTooManyAttempts(reply, gate.retryAfterSeconds);
    return undefined;
  }
  const result = gate.value;
  if (result instanceof OAuthError) {
    onOutcome?.(result.code);
    request.log.debug({ event: "oauth2_request_refused", error: result.code, detail: result.detail }, "OAuth request refused");
    sendTokenError(reply, result);
    return undefined;
  }
  onOutcome?.("success");
  return { result };
}

/** Token endpoint, UserInfo, revocation (RFC 7009), introspection (RFC 7662) and the CORS preflight. */
export async function oauthApiRoutes(app: FastifyInstance): Promise<void> {
  const { oauth, avatars, metrics } = app.services;

  app.post(TOKEN_PATH, { schema: tokenRouteSchema, attachValidation: true }, async (request, reply) => {
    allowListedOrigin(request, reply);
    const outcome = await clientEndpoint(
      request,
      reply,
      (r) => oauth.token(r),
      (result) => metrics.tokenRequest(grantTypeLabel(request.body), result),
      (r) => oauth.readAheadRider(r),
    );
    if (!outcome) return reply;
    return noStore(reply).send({ ...outcome.result, message_url: `${baseUrl(request)}${AUTHORIZATION_SUCCESSFUL_PATH}` });
  });

  // RFC 7009 §2.2: 200 with an empty body, whether the token existed or not.
  app.post(REVOCATION_PATH, { schema: revocationRouteSchema, attachValidation: true }, async (request, reply) => {
    allowListedOrigin(request, reply);
    const outcome = await clientEndpoint(request, reply, async (r) => (await oauth.revokeToken(r)) ?? ("revoked" as const));
    if (!outcome) return reply;
    return noStore(reply).status(200).send();
  });

  app.post(INTROSPECTION_PATH, { schema: introspectionRouteSchema, attachValidation: true }, async (request, reply) => {
    const outcome = await clientEndpoint(request, reply, (r) => oauth.introspect(r));
    if (!outcome) return reply;
    return noStore(reply).send(outcome.result);
  });

  // research A.7: sub, picture (only with an avatar), name, email (when set), in this order; for a
  // token whose grant had `openid`, the claims its scope grants (OIDC Core §5.3, src/oidc/claims.ts).
  app.get(USERINFO_PATH, { schema: userInfoRouteSchema }, async (request, reply) => {
    allowListedOrigin(request, reply);
    const principal = await requireUser(request, reply);
    if (!principal) return;
    const { user } = principal;
    const openIdClaims =
      principal.method === "bearer"
        ? await app.services.oidc.userInfo(user, principal.scope ?? null, originOf(request), principal.avatarExtension)
        : undefined;
    if (openIdClaims) return noStore(reply).send(openIdClaims);
    // A bearer token's statement read the avatar's extension already (issue 17).
    const extension =
      principal.avatarExtension === undefined ? await avatars.extensionOf(user.uid) : (principal.avatarExtension ?? undefined);
    return noStore(reply).send({
      sub: user.uid,
      ...(extension === undefined ? {} : { picture: avatarUrl(request, user.uid, extension) }),
      name: user.displayName,
      ...(user.email === null ? {} : { email: user.email }),
    });
  });

  // research A.10: the preflight answers any path under api/v1.
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
