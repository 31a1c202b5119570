import type { FastifyReply } from "fastify";
import type { Refusal } from "../refusal.js";

/**
 * The one table from a refusal's code to its HTTP status (node-oidc-provider lib/shared/err_out.js
 * plays this part there): every surface (the OAuth JSON answer, the OCS envelope, a page's form
 * section) answers a refusal with this status; a code not listed is a refused input, 400.
 */
const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  throttled: 429,
  wrong_credentials: 401,
  disabled: 403,
  no_such_user: 404,
  no_such_group: 404,
};

export function refusalStatus(refusal: Pick<Refusal, "code">): number {
  return STATUS_OF_CODE[refusal.code] ?? 400;
}

/** The status for `refusal`, with Retry-After when a throttle says when to try again (RFC 9110 §10.2.3). */
export function refusalReply(reply: FastifyReply, refusal: Refusal): number {
  if (refusal.retryAfterSeconds !== undefined) reply.header("retry-after", String(refusal.retryAfterSeconds));
  return refusalStatus(refusal);
}
