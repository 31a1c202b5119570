import type { FastifyRequest } from "fastify";
import type { TokenPacing } from "../oauth/token-endpoint.js";
import { type ThrottleBucket, tokenBuckets } from "../security/domain/throttle-policy.js";
import type { AttemptOutcome, Throttle } from "../security/throttle.js";
import { redactUrl } from "./log-redaction.js";

export type ThrottledResult<T> = { refused: true; retryAfterSeconds: number } | { refused: false; value: T };

/**
 * A throttled request's metrics, its log and its wait (the app's injectable `sleep`, which tests
 * replace to observe the delay); the token endpoint's steps take it as their TokenPacing.
 */
export class RequestPacing implements TokenPacing {
  constructor(
    private readonly request: FastifyRequest,
    private readonly namespace: string,
  ) {}

  refused(): void {
    this.request.server.services.metrics.throttleRefused(this.namespace);
  }

  async delay(ms: number): Promise<void> {
    this.request.server.services.metrics.throttleDelayed(this.namespace);
    // Logged: requests are logged once, when answered, and this one is about to wait.
    this.request.log.info(
      { event: "throttle_delay", delayMs: ms, url: redactUrl(this.request.url) },
      "attempt delayed by throttling",
    );
    await this.request.server.sleep(ms);
  }

  releaseFailed(error: unknown): void {
    this.request.log.error({ event: "throttle_release_failed", err: error }, "throttle reservation not released");
  }
}

/**
 * The gate around a throttled attempt (login form, HTTP Basic, revocation and introspection, Login
 * Flow v2, the device verification page; the token endpoint's own steps are oauth/token-endpoint.ts).
 * In order:
 * 1. reserve the attempt in its buckets before anything is checked, so concurrent attempts count
 *    each other;
 * 2. refused: the seconds to put in Retry-After (the caller answers 429; the credentials are not
 *    looked at);
 * 3. wait the delay the attempt's position owes;
 * 4. run the attempt;
 * 5. settle the reservation with `endOf` its result.
 * An attempt that throws gives its reservation back.
 */
export async function throttledAttempt<T>(
  request: FastifyRequest,
  throttle: Throttle,
  buckets: ThrottleBucket[],
  attempt: () => Promise<T>,
  endOf: (value: T) => AttemptOutcome,
): Promise<ThrottledResult<T>> {
  if (buckets.length === 0) return { refused: false, value: await attempt() };
  const reservation = await throttle.reserve(buckets);
  const pacing = new RequestPacing(request, throttle.policy.namespace);
  if (!reservation.admitted) {
    pacing.refused();
    return { refused: true, retryAfterSeconds: reservation.retryAfterSeconds };
  }
  let value: T;
  try {
    if (reservation.delayMs > 0) await pacing.delay(reservation.delayMs);
    value = await attempt();
  } catch (error) {
    // The attempt's own error is the one to report; a failed release is only logged (the
    // reservation then stops counting after the policy's in-flight limit).
    await throttle.settle(buckets, { kind: "uncounted" }).catch((releaseError: unknown) => pacing.releaseFailed(releaseError));
    throw error;
  }
  await throttle.settle(buckets, endOf(value));
  return { refused: false, value };
}

/** The token-endpoint family counts failures per client address. */
export function oauthBuckets(request: FastifyRequest): ThrottleBucket[] {
  return tokenBuckets(request.ip);
}
