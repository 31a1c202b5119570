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

/** `redirect_url` is honoured only for same-origin relative targets (no open redirect). */
export function safeRelativeTarget(target: unknown): string | undefined {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.includes("\\")) {
    return undefined;
  }
  try {
    const probe = new URL(target, "http://keystream.invalid");
    if (probe.origin !== "http://keystream.invalid") return undefined;
    return probe.pathname + probe.search + probe.hash;
  } catch {
    return undefined;
  }
}
