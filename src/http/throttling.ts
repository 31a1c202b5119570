import type { FastifyRequest } from "fastify";
import { type ThrottleBucket, tokenBuckets } from "../security/domain/throttle-policy.js";
import type { PendingSettlement } from "../security/ports.js";
import type { AttemptOutcome, ReserveWithRead, Throttle } from "../security/throttle.js";
import { redactUrl } from "./log-redaction.js";

export type ThrottledResult<T> = { refused: true; retryAfterSeconds: number } | { refused: false; value: T };

/** What the reservation gives the attempt it admitted. */
export interface Admission<R> {
  /** What was read with the reservation; undefined when nothing was, or when the attempt had to wait (it may be stale). */
  read: R | undefined;
  /** This attempt's settlement as `outcome`, as a value the attempt's own write can commit with itself. */
  settlementOf(outcome: AttemptOutcome): PendingSettlement;
}

/** How an attempt ended: an outcome for the gate to settle, or `settled` inside the attempt's own write. */
export type AttemptEnd = AttemptOutcome | { kind: "settled" };

/**
 * The one gate around a throttled attempt (login form, HTTP Basic, OAuth token, revocation and
 * introspection, Login Flow v2). In order:
 * 1. reserve the attempt in its buckets before anything is checked, so concurrent attempts count
 *    each other (with `reserveWithRead`, the attempt's first read comes back with the reservation);
 * 2. refused: the seconds to put in Retry-After (the caller answers 429; the credentials are not
 *    looked at);
 * 3. wait the delay the attempt's position owes (through the app's injectable `sleep`);
 * 4. run the attempt;
 * 5. settle the reservation with `endOf` its result, unless the attempt's write settled it.
 * An attempt that throws gives its reservation back (an attempt whose write commits its settlement
 * does nothing after that write that can throw: the grants sign their ID token before they write).
 */
export async function throttledAttempt<T, R = never>(
  request: FastifyRequest,
  throttle: Throttle,
  buckets: ThrottleBucket[],
  attempt: (admission: Admission<R>) => Promise<T>,
  endOf: (value: T) => AttemptEnd,
  reserveWithRead?: ReserveWithRead<R>,
): Promise<ThrottledResult<T>> {
  const settlementOf = (outcome: AttemptOutcome) => throttle.settlementOf(buckets, outcome);
  if (buckets.length === 0) return { refused: false, value: await attempt({ read: undefined, settlementOf }) };
  const { reservation, read } = reserveWithRead
    ? await throttle.reserveWithRead(buckets, reserveWithRead)
    : { reservation: await throttle.reserve(buckets), read: undefined };
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
        { event: "throttle_delay", delayMs: reservation.delayMs, url: redactUrl(request.url) },
        "attempt delayed by throttling",
      );
      await request.server.sleep(reservation.delayMs);
    }
    value = await attempt({ read: reservation.delayMs > 0 ? undefined : read, settlementOf });
  } catch (error) {
    // The attempt's own error is the one to report; a failed release is only logged (the
    // reservation then stops counting after the policy's in-flight limit).
    await throttle.settle(buckets, { kind: "uncounted" }).catch((releaseError: unknown) => {
      request.log.error({ event: "throttle_release_failed", err: releaseError }, "throttle reservation not released");
    });
    throw error;
  }
  const end = endOf(value);
  if (end.kind !== "settled") await throttle.settle(buckets, end);
  return { refused: false, value };
}

/** The token-endpoint family counts failures per client address. */
export function oauthBuckets(request: FastifyRequest): ThrottleBucket[] {
  return tokenBuckets(request.ip);
}
