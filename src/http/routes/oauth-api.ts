import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { namedClientId } from "../../oauth/client-authentication.js";
import { OAuthError } from "../../oauth/domain/errors.js";
import { GRANTS } from "../../oauth/grants/index.js";
import { stringParam } from "../../oauth/params.js";
import type { TokenRequest } from "../../oauth/token-request.js";
import { eventLogOf } from "../access-log.js";
import { auditOf } from "../audit-sign-in.js";
import { baseUrl } from "../base-url.js";
import { originOf } from "../issuer.js";
import { noStore, sendTokenError, sendTooManyAttempts } from "../oauth-errors.js";
import { parametersOf } from "../oauth-params.js";
import { principalAllows, requireUser, sendInsufficientScope } from "../plugins/authentication.js";
import {
  introspectionRouteSchema,
  preflightRouteSchema,
  revocationRouteSchema,
  tokenRouteSchema,
  userInfoPostRouteSchema,
  userInfoRouteSchema,
} from "../schemas/oauth.js";
import { oauthBuckets, RequestPacing, type ThrottledResult, throttledAttempt } from "../throttling.js";
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

/** How an answered client-endpoint request ended, for the metrics: "success", an RFC 6749 error code, or "throttled". */
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

/** The request as the OAuth service takes it; repeated or non-string parameters are 400 invalid_request. */
function parseClientRequest(request: FastifyRequest): TokenRequest | OAuthError {
  const params = parametersOf(request.body, request.validationError?.validation);
  if (!params.ok) return new OAuthError("invalid_request", params.description, { detail: params.detail });
  return {
    body: params.params,
    authorization: request.headers.authorization,
    userAgent: request.headers["user-agent"],
    log: eventLogOf(request),
    audit: auditOf(request),
    origin: originOf(request),
  };
}

/** One client endpoint other than the token endpoint: how it runs an admitted request. */
interface ClientEndpoint<T> {
  run(request: TokenRequest): Promise<T | OAuthError>;
}

/**
 * Revocation, introspection and device authorization (the token endpoint has its own steps,
 * oauth/token-endpoint.ts):
 * 1. parse the parameters (a malformed request is answered after its reservation, like any other);
 * 2. reserve the attempt in the token endpoint's per-IP throttle before anything is checked;
 *    refused: 429 with Retry-After;
 * 3. wait the delay the throttle owes, then run the endpoint (client authentication, the operation);
 * 4. settle the reservation: guessing (unknown client, wrong secret) counts as a failure and slows
 *    the next attempt down, a success resets the address's count;
 * 5. answer (answerClientRequest).
 */
export async function clientEndpoint<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: ClientEndpoint<T>,
): Promise<{ result: T } | undefined> {
  const buckets = oauthBuckets(request);
  const parsed = parseClientRequest(request);
  const gate = await throttledAttempt(
    request,
    request.server.services.tokenThrottle,
    buckets,
    async () => (parsed instanceof OAuthError ? parsed : endpoint.run(parsed)),
    (result) =>
      result instanceof OAuthError ? { kind: result.guess ? "failure" : "uncounted" } : { kind: "success", reset: buckets },
  );
  return answerClientRequest(request, reply, parsed, gate);
}

/**
 * A client endpoint's answer: 429 with Retry-After, or errors in the RFC 6749 §5.2 form, never
 * cached; the result of a success for the route to send.
 */
function answerClientRequest<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  parsed: TokenRequest | OAuthError,
  gate: ThrottledResult<T | OAuthError>,
  onOutcome?: EndpointOutcome,
): { result: T } | undefined {
  if (gate.refused) {
    onOutcome?.("throttled");
    sendTooManyAttempts(reply, gate.retryAfterSeconds);
    return undefined;
  }
  const result = gate.value;
  if (result instanceof OAuthError) {
    onOutcome?.(result.code);
    // The reason for the operator (a relying party's misconfiguration shows here), on the request's
    // access-log line: the error, its public description and the internal detail, the client and
    // grant type named. Never a secret: details are Keystream's own sentences, the values unlogged.
    eventLogOf(request).info(
      {
        event: "oauth2_request_refused",
        error: result.code,
        description: result.description,
        detail: result.detail,
        ...(parsed instanceof OAuthError
          ? {}
          : { client: namedClientId(parsed), grantType: stringParam(parsed.body, "grant_type") }),
      },
      `OAuth request refused: ${result.code}${result.detail ? ` (${result.detail})` : ""}`,
    );
    sendTokenError(reply, result);
    return undefined;
  }
  onOutcome?.("success");
  return { result };
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
