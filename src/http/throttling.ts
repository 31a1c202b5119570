import type { FastifyRequest } from "fastify";
import { type AttemptOutcome, type Throttle, type ThrottleBucket, tokenBuckets } from "../security/throttle.js";

export type ThrottledResult<T> = { refused: true; retryAfterSeconds: number } | { refused: false; value: T };

/**
 * The one gate around a throttled attempt (login form, HTTP Basic, OAuth token, revocation and
 * introspection). It reserves the attempt in the buckets before anything is checked, so concurrent
 * attempts count each other (issue 16); refuses it with the seconds to put in Retry-After (the
 * caller answers 429, the credentials are not looked at); otherwise waits the delay the attempt's
 * position owes (through the app's injectable `sleep`), runs `attempt`, and settles the reservation
 * with `outcomeOf` its result. An attempt that throws gives its reservation back.
 */
export async function throttledAttempt<T>(
  request: FastifyRequest,
  throttle: Throttle,
  buckets: ThrottleBucket[],
  attempt: () => Promise<T>,
  outcomeOf: (value: T) => AttemptOutcome,
): Promise<ThrottledResult<T>> {
  if (buckets.length === 0) return { refused: false, value: await attempt() };
  const reservation = await throttle.reserve(buckets);
  const { metrics } = request.server.services;
  if (!reservation.admitted) {
    metrics.throttleRefused(throttle.policy.namespace);
    return { refused: true, retryAfterSeconds: reservation.retryAfterSeconds };
  }
  let value: T;
  try {
    if (reservation.delayMs > 0) {
      metrics.throttleDelayed(throttle.policy.namespace);
      // Logged: requests are logged once, when answered, and this one is about to wait.
      request.log.info(
        { event: "throttle_delay", delayMs: reservation.delayMs, url: request.url },
        "attempt delayed by throttling",
      );
      await request.server.sleep(reservation.delayMs);
    }
    value = await attempt();
  } catch (error) {
    // The attempt's own error is the one to report; a failed release is only logged (the
    // reservation then stops counting after the policy's in-flight limit).
    await throttle.settle(buckets, { kind: "uncounted" }).catch((releaseError: unknown) => {
      request.log.error({ event: "throttle_release_failed", err: releaseError }, "throttle reservation not released");
    });
    throw error;
  }
  await throttle.settle(buckets, outcomeOf(value));
  return { refused: false, value };
}

/** The token-endpoint family counts failures per client address. */
export function oauthBuckets(request: FastifyRequest): ThrottleBucket[] {
  return tokenBuckets(request.ip);
}
