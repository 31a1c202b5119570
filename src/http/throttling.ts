import type { FastifyRequest } from "fastify";
import type { Throttle } from "../security/throttle.js";

export type GateResult = { refused: true; retryAfterSeconds: number } | { refused: false; failuresOnRecord: boolean };

/**
 * The one gate in front of a throttled attempt (login form, HTTP Basic, OAuth token, revocation and
 * introspection): waits the delay the buckets owe (through the app's injectable `sleep`), or refuses
 * with the seconds to put in Retry-After when the buckets are past the hard ceiling (the caller
 * answers 429). `failuresOnRecord` tells the caller whether a success has anything to reset, so the
 * common case (no failures) costs one read and no write.
 */
export async function throttleGate(request: FastifyRequest, throttle: Throttle, buckets: string[]): Promise<GateResult> {
  const verdict = await throttle.check(buckets);
  if (verdict.retryAfterSeconds !== undefined) return { refused: true, retryAfterSeconds: verdict.retryAfterSeconds };
  if (verdict.delayMs > 0) {
    // Logged: requests are logged once, when answered, and this one is about to wait.
    request.log.info({ event: "throttle_delay", delayMs: verdict.delayMs, url: request.url }, "attempt delayed by throttling");
    await request.server.sleep(verdict.delayMs);
  }
  return { refused: false, failuresOnRecord: verdict.failuresOnRecord };
}

/** The token-endpoint family counts failures per client address. */
export function oauthBuckets(request: FastifyRequest): string[] {
  return [`oauth:ip:${request.ip}`];
}
