import type { FastifyRequest } from "fastify";
import type { WriteWithIssue } from "../oauth/ports.js";
import type { AttemptOutcome, ReservationRider, Throttle, ThrottleBucket } from "../security/throttle.js";
import { tokenBuckets } from "../security/throttle.js";
import type { DbOrTx } from "../storage/database.js";

export type ThrottledResult<T> = { refused: true; retryAfterSeconds: number } | { refused: false; value: T };

/**
 * The one gate around a throttled attempt (login form, HTTP Basic, OAuth token, revocation and
 * introspection). It reserves the attempt in the buckets before anything is checked, so concurrent
 * attempts count each other (issue 16); refuses it with the seconds to put in Retry-After (the
 * caller answers 429, the credentials are not looked at); otherwise waits the delay the attempt's
 * position owes (through the app's injectable `sleep`), runs `attempt`, and settles the reservation
 * with `outcomeOf` its result. An attempt that throws gives its reservation back.
 *
 * The attempt may settle itself instead, inside the transaction of the write its success makes
 * (`settleWith`: the token endpoint's redemption and rotation, issue 17), so that write and the
 * settlement commit once. Settled so, the reservation is not settled again, not even when the
 * attempt throws afterwards: a settlement given twice would end another attempt's reservation, while
 * one that was lost with a failed commit only keeps counting until the policy's in-flight limit.
 *
 * With a `rider` (the token endpoint on PostgreSQL), the reservation's statement also makes the
 * attempt's first read, handed to `attempt` unless the attempt had to wait first.
 */
export async function throttledAttempt<T, R = never>(
  request: FastifyRequest,
  throttle: Throttle,
  buckets: ThrottleBucket[],
  attempt: (settleWith: SettleWith | undefined, read: R | undefined) => Promise<T>,
  outcomeOf: (value: T) => AttemptOutcome,
  rider?: ReservationRider<R>,
): Promise<ThrottledResult<T>> {
  if (buckets.length === 0) return { refused: false, value: await attempt(undefined, undefined) };
  // With a rider, the attempt's first read comes back with the reservation (one statement, issue 17).
  const { reservation, read } = rider
    ? await throttle.reserveWith(buckets, rider)
    : { reservation: await throttle.reserve(buckets), read: undefined };
  const { metrics } = request.server.services;
  if (!reservation.admitted) {
    metrics.throttleRefused(throttle.policy.namespace);
    return { refused: true, retryAfterSeconds: reservation.retryAfterSeconds };
  }
  let settledWithWrite = false;
  const settleWith: SettleWith = (outcome) => ({
    run: async (transaction) => {
      await throttle.settle(buckets, outcome, transaction as DbOrTx);
      settledWithWrite = true;
    },
    settlesThrottleBucket: throttle.successResettingOneBucket(buckets, outcome),
    folded: () => {
      settledWithWrite = true;
    },
  });
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
    // A read made before a delay may be stale after it: the attempt then reads for itself.
    value = await attempt(settleWith, reservation.delayMs > 0 ? undefined : read);
  } catch (error) {
    if (settledWithWrite) throw error;
    // The attempt's own error is the one to report; a failed release is only logged (the
    // reservation then stops counting after the policy's in-flight limit).
    await throttle.settle(buckets, { kind: "uncounted" }).catch((releaseError: unknown) => {
      request.log.error({ event: "throttle_release_failed", err: releaseError }, "throttle reservation not released");
    });
    throw error;
  }
  if (!settledWithWrite) await throttle.settle(buckets, outcomeOf(value));
  return { refused: false, value };
}

/** The settlement of this attempt as `outcome`, as a write to run inside another write's transaction. */
export type SettleWith = (outcome: AttemptOutcome) => WriteWithIssue;

/** The token-endpoint family counts failures per client address. */
export function oauthBuckets(request: FastifyRequest): ThrottleBucket[] {
  return tokenBuckets(request.ip);
}
