import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuthenticationResult, Principal } from "../../accounts/authentication.js";
import type { SessionPending } from "../../accounts/ports.js";
import type { Session } from "../../accounts/sessions.js";
import { constantTimeEqual } from "../../crypto/secrets.js";
import { parseBasicAuthorization } from "../../oauth/client-authentication.js";
import { type RequiredScope, scopeAllows } from "../../oauth/domain/scope.js";
import { loginBuckets, loginUserBucket } from "../../security/domain/throttle-policy.js";
import type { AttemptOutcome } from "../../security/throttle.js";
import { auditSignInFailure } from "../audit-sign-in.js";
import { httpsSite } from "../base-url.js";
import { throttledAttempt } from "../throttling.js";

export const SESSION_COOKIE = "ks_session";

/** The realm of every challenge Keystream sends (RFC 9110 §11.6.1). */
const REALM = "Keystream";
const BASIC_CHALLENGE = `Basic realm="${REALM}", charset="UTF-8"`;

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `authenticate` (memoised per request). */
    authResult?: AuthenticationResult;
  }
}

/**
 * Runs the authentication chain once per request. A Basic attempt with the account password is
 * throttled like the login form (per IP and per user, through the database), so the API is no side
 * door for guessing.
 *
 * An app password is decided before the throttle: it is a long random secret, so it cannot be
 * guessed, and checking it is one indexed lookup of its hash. A Basic secret that is no app
 * password is an account-password attempt and goes through the throttle. This keeps the throttle's
 * writes (a reservation and its settlement) off every request a client makes with its app
 * password, lets a client send parallel requests without the per-user delays that a burst of
 * guesses earns, and keeps an attacker's guessing from locking the user's own clients out, while
 * those clients' successes do not reset the count of the attacker's failures.
 */
export async function authenticate(request: FastifyRequest): Promise<AuthenticationResult> {
  if (request.authResult) return request.authResult;
  request.authResult = await authenticateOnce(request, request.cookies[SESSION_COOKIE]);
  return request.authResult;
}

/**
 * The same chain for the `Authorization` header alone, the session cookie ignored: forward
 * authentication (routes/forward-auth.ts) vouches for requests a proxy sends on to a file server,
 * which has no CSRF defence of its own, so a browser's ambient cookie must not authorize them.
 * Memoised in the same slot as `authenticate`: a route uses one or the other.
 */
export async function authenticateAuthorizationHeader(request: FastifyRequest): Promise<AuthenticationResult> {
  if (request.authResult) return request.authResult;
  request.authResult = await authenticateOnce(request, undefined);
  return request.authResult;
}

async function authenticateOnce(request: FastifyRequest, sessionToken: string | undefined): Promise<AuthenticationResult> {
  const { authenticator } = request.server.services;
  const authorization = request.headers.authorization;
  const basic = parseBasicAuthorization(authorization);
  if (basic === undefined) return authenticator.authenticate(authorization, sessionToken);
  return authenticateBasic(request, basic.id, basic.secret);
}

/**
 * A user name and secret as HTTP Basic takes them (the header's, or a push socket's two frames:
 * routes/push.ts): an app password, else the account password through the login throttle.
 */
export async function authenticateBasic(request: FastifyRequest, id: string, secret: string): Promise<AuthenticationResult> {
  const { authenticator, loginThrottle } = request.server.services;
  const viaAppPassword = await authenticator.basicAppPassword(id, secret);
  if (viaAppPassword) return viaAppPassword;
  const gate = await throttledAttempt(
    request,
    loginThrottle,
    loginBuckets(request.ip, id),
    () => authenticator.basicAccountPassword(id, secret),
    (result): AttemptOutcome =>
      "principal" in result
        ? { kind: "success", reset: [loginUserBucket(id)] }
        : "failure" in result && result.failure === "invalid_credentials"
          ? { kind: "failure" }
          : { kind: "uncounted" },
  );
  // Past the ceiling, or the capped delay's pace: refused without checking the password (requireUser answers 429).
  if (gate.refused) {
    auditSignInFailure(request, id, "basic", "throttled");
    return { failure: "throttled", retryAfterSeconds: gate.retryAfterSeconds };
  }
  const result = gate.value;
  if ("failure" in result && result.failure === "invalid_credentials")
    auditSignInFailure(request, id, "basic", "wrong_credentials");
  return result;
}

/**
 * The Bearer challenge (RFC 6750 §3): `error="invalid_token"` when a bearer token was refused, no
 * error code when the request had no bearer token (§3.1). Clients choose OAuth by its `bearer `
 * (docs/clients.md), so the forward-auth endpoint answers every refusal with it.
 */
export function bearerChallenge(result: AuthenticationResult): string {
  const refusedToken = "failure" in result && result.failure === "invalid_token";
  return refusedToken ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
}

/**
 * The principal may use what requires `required` (src/oauth/domain/scope.ts): a bearer token by
 * the scope of its grant; a session, the account password and an app password are the account
 * itself (Nextcloud's app passwords have full access), so they may use everything.
 */
export function principalAllows(principal: Principal, required: RequiredScope): boolean {
  return principal.method !== "bearer" || scopeAllows(principal.scope, required);
}

/** The challenge of an `insufficient_scope` refusal (RFC 6750 §3: with the `scope` attribute). */
export function insufficientScopeChallenge(required: RequiredScope): string {
  return `Bearer realm="${REALM}", error="insufficient_scope", scope="${required}"`;
}

/**
 * RFC 6750 §3.1 `insufficient_scope`: 403, with the scope the request needs in the challenge
 * (§3: the `scope` attribute) and the body. The one refusal of every surface that checks a scope.
 */
export function sendInsufficientScope(reply: FastifyReply, required: RequiredScope): FastifyReply {
  return reply
    .status(403)
    .header("www-authenticate", insufficientScopeChallenge(required))
    .send({
      error: "insufficient_scope",
      error_description: `The access token was not granted the scope this request needs: ${required}.`,
      scope: required,
    });
}

/** Names why a Basic login with the right account password was refused (a client can show it). */
export const SECOND_FACTOR_REASON_HEADER = "x-keystream-auth-refused";

/** The body's explanation of `second_factor_required`: what the client's user should do instead. */
export const SECOND_FACTOR_REQUIRED_DESCRIPTION =
  "This account uses two-factor authentication: its password cannot be used over HTTP Basic. " +
  "Use an app password (personal settings, Security) or sign in through the browser (OAuth 2.0 or Login Flow v2).";

export interface RequireUserOptions {
  /** Status for a request with no credentials at all (the activity API answers 403, as APIv2Controller does: docs/upstream/nextcloud-activity.md §1.2). */
  anonymousStatus?: 401 | 403;
}

/**
 * The principal of an API request, or undefined after a 401/403 has been sent.
 * A bad bearer token answers RFC 6750 §3.1 `invalid_token`; bad Basic credentials a Basic challenge.
 */
export async function requireUser(
  request: FastifyRequest,
  reply: FastifyReply,
  options: RequireUserOptions = {},
): Promise<Principal | undefined> {
  const result = await authenticate(request);
  if ("principal" in result) return result.principal;
  if ("failure" in result) {
    if (result.failure === "throttled") {
      reply
        .status(429)
        .header("retry-after", String(result.retryAfterSeconds ?? 60))
        .send({ error: "too_many_requests", error_description: "Too many failed attempts; try again later." });
    } else if (result.failure === "invalid_token") {
      reply
        .status(401)
        .header("www-authenticate", bearerChallenge(result))
        .send({ error: "invalid_token", error_description: "The access token is invalid or expired." });
    } else if (result.failure === "second_factor_required") {
      reply
        .status(401)
        .header("www-authenticate", BASIC_CHALLENGE)
        .header(SECOND_FACTOR_REASON_HEADER, "second-factor-required")
        .send({ error: "second_factor_required", error_description: SECOND_FACTOR_REQUIRED_DESCRIPTION });
    } else {
      const description =
        result.failure === "password_login_forbidden"
          ? "Password login is disabled (token_auth_enforced); use an app password or a token."
          : "Invalid credentials.";
      reply
        .status(401)
        .header("www-authenticate", BASIC_CHALLENGE)
        .send({ error: "invalid_credentials", error_description: description });
    }
    return undefined;
  }
  const status = options.anonymousStatus ?? 401;
  if (status === 401) reply.header("www-authenticate", BASIC_CHALLENGE);
  reply.status(status).send({ error: "not_authenticated", error_description: "Authentication required." });
  return undefined;
}

/**
 * The logged-in browser session, or undefined after a 303 to the login page has been sent; the
 * login page sends the browser back to `returnTo`, by default the request's own URL.
 */
export async function requirePageUser(
  request: FastifyRequest,
  reply: FastifyReply,
  returnTo: string = request.url,
): Promise<Principal | undefined> {
  const result = await authenticate(request);
  if ("principal" in result && result.principal.method === "session") return result.principal;
  // A session that has passed only the password finishes its step first, then comes back here.
  const pending = ("anonymous" in result ? result.pendingLogin?.session.pending : undefined) ?? undefined;
  const page = pending === undefined ? "/index.php/login" : pendingStepPath(pending);
  const target = `${page}?redirect_url=${encodeURIComponent(returnTo)}`;
  reply.redirect(target, 303);
  return undefined;
}

/** The page a session owing `pending` finishes it on. */
export function pendingStepPath(pending: SessionPending): string {
  return pending === "second_factor" ? SECOND_FACTOR_CHALLENGE_PATH : SECOND_FACTOR_SETUP_PATH;
}

/** The challenge page: a session that has passed only the password proves its second factor. */
export const SECOND_FACTOR_CHALLENGE_PATH = "/index.php/login/challenge";
/** Second factors enforced and the user has none: the setup right after the password. */
export const SECOND_FACTOR_SETUP_PATH = "/index.php/login/setup-second-factor";

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: Session): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: httpsSite(request),
    expires: new Date(session.expiresAt * 1000),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: httpsSite(request) });
}

/**
 * CSRF for state-changing JSON API calls: a browser session must prove the call comes from our
 * own pages, with the `requesttoken` header or Nextcloud's `OCS-APIRequest: true` (a header a
 * cross-site form cannot send); Basic and Bearer credentials are never sent by a browser on their
 * own. The route guard `apiOrigin` (route-guards.ts) answers a refusal.
 */
export function apiCallFromOwnPage(request: FastifyRequest, principal: Principal): boolean {
  return principal.method !== "session" || csrfValid(request, principal.session) || request.headers["ocs-apirequest"] === "true";
}

/**
 * The request token a form or a script sent: the form's `requesttoken` field, else the
 * `requesttoken` header (as ownCloud's JavaScript sends it). Never the query string: a URL is
 * written to access logs, proxy logs and browser history.
 */
export function submittedRequestToken(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body.requesttoken === "string") return body.requesttoken;
  const header = request.headers.requesttoken;
  return typeof header === "string" ? header : undefined;
}

/**
 * CSRF check for state-changing forms: the submitted request token (body or header) must equal
 * the session's token, compared in constant time.
 */
export function csrfValid(request: FastifyRequest, session: Session | undefined): boolean {
  const given = submittedRequestToken(request);
  return session !== undefined && given !== undefined && constantTimeEqual(given, session.csrfToken);
}

/**
 * CSRF check for the logout links, the only requests whose token may come in the query: a link
 * can carry it nowhere else (ownCloud's `GET /index.php/logout?requesttoken=…` and the OAuth
 * switch-user link, docs/upstream/owncloud-oauth2.md A.2.5). Only a GET: a POST sends its body.
 */
export function logoutLinkValid(request: FastifyRequest, session: Session | undefined): boolean {
  if (request.method !== "GET") return csrfValid(request, session);
  const given = (request.query as Record<string, unknown> | undefined)?.requesttoken;
  return session !== undefined && typeof given === "string" && constantTimeEqual(given, session.csrfToken);
}
