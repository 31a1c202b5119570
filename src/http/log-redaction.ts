import type { FastifyRequest } from "fastify";

/**
 * Query parameters whose values never reach a log line:
 * - credentials and capabilities: `code`, `code_verifier`, `access_token`, `refresh_token`,
 *   `token`, `client_secret`, `password`, `requesttoken`, `id_token_hint` (a signed token that
 *   names its user and works as a silent logout, OpenID RP-Initiated Logout 1.0 §2);
 * - the client's own anti-forgery values, which it may also fill with its own data: `state`
 *   (RFC 6749 §10.12 binds it to the user agent), `nonce` (OIDC Core §3.1.2.1);
 * - personal data: `login_hint` (often an e-mail address, OIDC Core §3.1.2.1) and `user`
 *   (ownCloud's user-name hint, which Keystream fills from `login_hint`).
 * Compared without regard to case; every other parameter (client_id, redirect_uri, scope…) stays.
 */
const SECRET_PARAMETERS = new Set([
  "access_token",
  "client_secret",
  "code",
  "code_verifier",
  "id_token_hint",
  "login_hint",
  "nonce",
  "password",
  "refresh_token",
  "requesttoken",
  "state",
  "token",
  "user",
]);

/** Login Flow v2's browser pages carry the flow's login token in the path (routes/login-flow.ts). */
const LOGIN_FLOW_PREFIX = "/index.php/login/v2/flow/";
const LOGIN_FLOW_PAGE = /^(\/index\.php\/login\/v2\/flow\/)[^/?]+/;

export const REDACTED = "REDACTED";

/** A URL kept in a parameter (the login page's `redirect_url`) is redacted too, this deep. */
const NESTED_DEPTH = 2;

function decoded(text: string): string | undefined {
  if (!text.includes("%") && !text.includes("+")) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** A parameter value that may be a URL with a query or a path of its own (percent-encoded or not). */
const URL_LIKE = /^(?:\/|%2f)|\?|%3f/i;

/**
 * A request URL as it may be logged: the values of SECRET_PARAMETERS replaced with REDACTED (also
 * inside a URL that a parameter carries), Login Flow's path token likewise; everything else as
 * sent. The one redaction every log line that writes a URL goes through (access-log.ts).
 */
export function redactUrl(url: string): string {
  return redact(url, 0);
}

function redact(url: string, depth: number): string {
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  const safePath = path.startsWith(LOGIN_FLOW_PREFIX) ? path.replace(LOGIN_FLOW_PAGE, `$1${REDACTED}`) : path;
  if (mark < 0) return safePath;
  const query = url
    .slice(mark + 1)
    .split("&")
    .map((pair) => redactPair(pair, depth))
    .join("&");
  return `${safePath}?${query}`;
}

function redactPair(pair: string, depth: number): string {
  const equals = pair.indexOf("=");
  const rawName = equals < 0 ? pair : pair.slice(0, equals);
  const name = (decoded(rawName) ?? rawName).toLowerCase();
  if (SECRET_PARAMETERS.has(name)) return `${rawName}=${REDACTED}`;
  if (equals < 0 || depth + 1 >= NESTED_DEPTH) return pair;
  const rawValue = pair.slice(equals + 1);
  if (!URL_LIKE.test(rawValue)) return pair;
  const value = decoded(rawValue);
  if (value === undefined) return pair;
  const redacted = redact(value, depth + 1);
  return redacted === value ? pair : `${rawName}=${encodeURIComponent(redacted)}`;
}

/**
 * Fastify's `req` serializer (fastify/lib/logger-pino.js `asReqValue`), the same fields, with the
 * URL redacted: what the access log and Fastify's own error lines write of a request.
 */
export function requestLogValue(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
