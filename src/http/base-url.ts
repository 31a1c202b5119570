import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The canonical base URL for absolute URLs the server builds (Link headers, message_url, avatars):
 * `overwrite.cli.url` when set, else the scheme and host this request came in on (forwarded
 * headers are believed only from KEYSTREAM_TRUSTED_PROXIES, through Fastify's trustProxy).
 */
export function baseUrl(request: FastifyRequest): string {
  const configured = request.server.services.settings.get("overwrite.cli.url");
  if (configured) return configured;
  return `${request.protocol}://${request.host}`;
}

/** The origin (RFC 6454 §4) of the base URL: what a passkey is bound to (W3C WebAuthn Level 3 §5.1.4.1). */
export function siteOrigin(request: FastifyRequest): string {
  return new URL(baseUrl(request)).origin;
}

/** Whether a base URL (`overwrite.cli.url`, normalised by its setting; a request's origin) is an https one. */
export function isHttpsUrl(url: string): boolean {
  return url.startsWith("https://");
}

/**
 * Whether this site is served over https as far as the browser is concerned: the request came in
 * over https (directly, or as a trusted proxy says), or `overwrite.cli.url` is https (a TLS proxy
 * whose forwarded headers are not trusted still means the browser talks https). Cookies are
 * `Secure` then (RFC 6265 §4.1.2.5).
 */
export function httpsSite(request: FastifyRequest): boolean {
  if (request.protocol === "https") return true;
  return isHttpsUrl(request.server.services.settings.get("overwrite.cli.url"));
}

/**
 * HTTP Strict Transport Security (RFC 6797 §6.1) for a site whose base URL (`baseUrl`) is https:
 * 180 days, Rails' default (rails/rails actionpack/lib/action_dispatch/middleware/ssl.rb
 * `HSTS_EXPIRES_IN`) and the least Nextcloud's administration overview accepts; this host only
 * (no `includeSubDomains`, which would bind every other service under the domain), no `preload`.
 */
const STRICT_TRANSPORT_SECURITY = "max-age=15552000";

/** Adds Strict-Transport-Security to the answer when the base URL is https (docs/security.md). */
export function addStrictTransportSecurity(request: FastifyRequest, reply: FastifyReply): void {
  if (isHttpsUrl(baseUrl(request))) reply.header("strict-transport-security", STRICT_TRANSPORT_SECURITY);
}

/**
 * RFC 9110 §7.2 `Host = uri-host [ ":" port ]`, narrowed to what names a server: a host name or
 * IPv4 address (letters, digits, `.`, `-`, `_`) or a bracketed IPv6 literal (RFC 3986 §3.2.2),
 * then an optional port; at most 255 characters (RFC 1035 §2.3.4 limits a DNS name to 253).
 */
const HOST = /^(?:[A-Za-z0-9_][A-Za-z0-9._-]*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;
export const MAX_HOST_LENGTH = 255;

/**
 * Whether the request's host (its `Host`, or a trusted proxy's `X-Forwarded-Host`) may become the
 * base URL of what the server builds. Anything else is refused before routing (app.ts): a base URL
 * goes into links, headers and documents, and a Host of free text up to Node's header limit has no
 * business there. An empty host (HTTP/1.0 without one) is let through, as Node lets it.
 */
export function acceptableHost(host: string): boolean {
  return host === "" || (host.length <= MAX_HOST_LENGTH && HOST.test(host));
}

/**
 * Cache headers for a document built from `baseUrl` that may be cached for `maxAgeSeconds`. When
 * `overwrite.cli.url` fixes the base URL the document is the same for everyone: public. Otherwise
 * it is built from the request's Host (and trusted forwarded headers): a shared cache must not
 * serve one requester's version to another (a `Host: evil.example` request would poison the cached
 * issuer for everyone), so it is private and varies on those headers.
 */
export function cacheByBaseUrl(request: FastifyRequest, reply: FastifyReply, maxAgeSeconds: number): FastifyReply {
  if (request.server.services.settings.get("overwrite.cli.url")) {
    return reply.header("cache-control", `public, max-age=${maxAgeSeconds}`);
  }
  return reply
    .header("cache-control", `private, max-age=${maxAgeSeconds}`)
    .header("vary", "Host, X-Forwarded-Host, X-Forwarded-Proto");
}
