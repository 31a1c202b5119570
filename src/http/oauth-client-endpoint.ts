import type { FastifyReply, FastifyRequest } from "fastify";
import { namedClientId } from "../oauth/client-authentication.js";
import { OAuthError } from "../oauth/domain/errors.js";
import { stringParam } from "../oauth/params.js";
import type { TokenRequest } from "../oauth/token-request.js";
import { eventLogOf } from "./access-log.js";
import { auditOf } from "./audit-sign-in.js";
import { originOf } from "./issuer.js";
import { sendTokenError, sendTooManyAttempts } from "./oauth-errors.js";
import { parametersOf } from "./oauth-params.js";
import { oauthBuckets, type ThrottledResult, throttledAttempt } from "./throttling.js";

/** How an answered client-endpoint request ended, for the metrics: "success", an RFC 6749 error code, or "throttled". */
type EndpointOutcome = (outcome: string) => void;

/** The request as the OAuth service takes it; repeated or non-string parameters are 400 invalid_request. */
export function parseClientRequest(request: FastifyRequest): TokenRequest | OAuthError {
  const params = parametersOf(request.body, request.validationError?.validation);
  if (!params.ok) return new OAuthError("invalid_request", params.description, { detail: params.detail });
  return {
    body: params.params,
    authorization: request.headers.authorization,
    userAgent: request.headers["user-agent"],
    log: eventLogOf(request),
    audit: auditOf(request),
    origin: originOf(request),
  };
}

/** One client endpoint other than the token endpoint: how it runs an admitted request. */
interface ClientEndpoint<T> {
  run(request: TokenRequest): Promise<T | OAuthError>;
}

/**
 * Revocation, introspection and device authorization (the token endpoint has its own steps,
 * oauth/token-endpoint.ts):
 * 1. parse the parameters (a malformed request is answered after its reservation, like any other);
 * 2. reserve the attempt in the token endpoint's per-IP throttle before anything is checked;
 *    refused: 429 with Retry-After;
 * 3. wait the delay the throttle owes, then run the endpoint (client authentication, the operation);
 * 4. settle the reservation: guessing (unknown client, wrong secret) counts as a failure and slows
 *    the next attempt down, a success resets the address's count;
 * 5. answer (answerClientRequest).
 */
export async function clientEndpoint<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: ClientEndpoint<T>,
): Promise<{ result: T } | undefined> {
  const buckets = oauthBuckets(request);
  const parsed = parseClientRequest(request);
  const gate = await throttledAttempt(
    request,
    request.server.services.tokenThrottle,
    buckets,
    async () => (parsed instanceof OAuthError ? parsed : endpoint.run(parsed)),
    (result) =>
      result instanceof OAuthError ? { kind: result.guess ? "failure" : "uncounted" } : { kind: "success", reset: buckets },
  );
  return answerClientRequest(request, reply, parsed, gate);
}

/**
 * A client endpoint's answer: 429 with Retry-After, or errors in the RFC 6749 §5.2 form, never
 * cached; the result of a success for the route to send.
 */
export function answerClientRequest<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  parsed: TokenRequest | OAuthError,
  gate: ThrottledResult<T | OAuthError>,
  onOutcome?: EndpointOutcome,
): { result: T } | undefined {
  if (gate.refused) {
    onOutcome?.("throttled");
    sendTooManyAttempts(reply, gate.retryAfterSeconds);
    return undefined;
  }
  const result = gate.value;
  if (result instanceof OAuthError) {
    onOutcome?.(result.code);
    // The reason for the operator (a relying party's misconfiguration shows here), on the request's
    // access-log line: the error, its public description and the internal detail, the client and
    // grant type named. Never a secret: details are Keystream's own sentences, the values unlogged.
    eventLogOf(request).info(
      {
        event: "oauth2_request_refused",
        error: result.code,
        description: result.description,
        detail: result.detail,
        ...(parsed instanceof OAuthError
          ? {}
          : { client: namedClientId(parsed), grantType: stringParam(parsed.body, "grant_type") }),
      },
      `OAuth request refused: ${result.code}${result.detail ? ` (${result.detail})` : ""}`,
    );
    sendTokenError(reply, result);
    return undefined;
  }
  onOutcome?.("success");
  return { result };
}
