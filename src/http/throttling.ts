import type { FastifyRequest } from "fastify";
import type { Throttle } from "../security/throttle.js";

/**
 * The one gate in front of a throttled attempt (login form, HTTP Basic, OAuth token, revocation and
 * introspection): waits the delay the buckets owe (through the app's injectable `sleep`), or returns
 * the seconds to put in Retry-After when the buckets are past the hard ceiling (the caller answers 429).
 */
export async function throttleGate(request: FastifyRequest, throttle: Throttle, buckets: string[]): Promise<number | undefined> {
  const verdict = await throttle.check(buckets);
  if (verdict.retryAfterSeconds !== undefined) return verdict.retryAfterSeconds;
  if (verdict.delayMs > 0) await request.server.sleep(verdict.delayMs);
  return undefined;
}

/** The token-endpoint family counts failures per client address. */
export function oauthBuckets(request: FastifyRequest): string[] {
  return [`oauth:ip:${request.ip}`];
}
