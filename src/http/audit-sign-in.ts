import type { FastifyRequest } from "fastify";
import type { SignInFactor } from "../audit/domain/kinds.js";
import type { AuditTrail } from "../audit/recorder.js";
import { auditContextOf } from "./audit-context.js";

/** The audit log with this request's context (address, browser, request id, actor), given explicitly. */
export function auditOf(request: FastifyRequest): AuditTrail {
  return request.server.services.audit.withContext(auditContextOf(request));
}

/** Why a sign-in was refused, in its audit event's detail. */
export type SignInRefusal = "wrong_credentials" | "throttled" | "disabled" | "second_factor_required";

/**
 * An interactive sign-in that ended in a session (login form, passkey, second factor), once per
 * sign-in: the user is its actor. A request authenticated by valid credentials (Basic, bearer, an
 * app password) is no sign-in event (docs/decisions.md "Audit log").
 */
export function auditSignIn(
  request: FastifyRequest,
  uid: string,
  factor: SignInFactor,
  detail: Record<string, unknown> = {},
): void {
  auditOf(request).record("sign_in.succeeded", {
    uid,
    actor: uid,
    subject: { type: "user", id: uid },
    detail: { factor, ...detail },
  });
}

/** A refused sign-in (form, passkey, second factor, HTTP Basic): `uid` is the name tried, when one was. */
export function auditSignInFailure(
  request: FastifyRequest,
  uid: string | undefined,
  factor: SignInFactor,
  reason: SignInRefusal,
): void {
  auditOf(request).record("sign_in.failed", {
    uid: uid === undefined || uid === "" ? null : uid,
    ...(uid === undefined || uid === "" ? {} : { subject: { type: "user", id: uid } }),
    detail: { factor, reason },
  });
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
