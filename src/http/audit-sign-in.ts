import type { FastifyRequest } from "fastify";
import { recordSignInFailure, type SignInFailureReason } from "../accounts/sign-in-events.js";
import type { SignInFactor } from "../audit/domain/kinds.js";
import type { AuditTrail } from "../audit/recorder.js";
import { auditContextOf } from "./audit-context.js";

/** The audit log with this request's context (address, browser, request id, actor), given explicitly. */
export function auditOf(request: FastifyRequest): AuditTrail {
  return request.server.services.audit.withContext(auditContextOf(request));
}

/** A refused sign-in by HTTP Basic: `uid` is the name tried, when one was (accounts/sign-in-events.ts). */
export function auditSignInFailure(
  request: FastifyRequest,
  uid: string | undefined,
  factor: SignInFactor,
  reason: SignInFailureReason,
): void {
  recordSignInFailure(auditOf(request), uid, factor, reason);
}

/** A session ended by its user (logout, RP-initiated logout) or by them for their other sessions. */
export function auditSessionEnded(request: FastifyRequest, uid: string, how: "logout" | "rp_logout" | "others", count = 1): void {
  auditOf(request).record("session.ended", {
    uid,
    actor: uid,
    subject: { type: "session", id: how },
    detail: { how, count },
  });
}
