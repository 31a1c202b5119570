import type { FastifyRequest } from "fastify";

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
