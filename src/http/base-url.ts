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
