import type { SignInFactor } from "../audit/domain/kinds.js";
import type { AuditTrail } from "../audit/recorder.js";

/** Why a sign-in was refused, in its audit event's detail. */
export type SignInFailureReason = "wrong_credentials" | "throttled" | "disabled" | "second_factor_required";

/**
 * An interactive sign-in that ended in a session (login form, passkey, second factor), once per
 * sign-in: the user is its actor. A request authenticated by valid credentials (Basic, bearer, an
 * app password) is no sign-in event (docs/decisions.md "Audit log").
 */
export function recordSignIn(audit: AuditTrail, uid: string, factor: SignInFactor, detail: Record<string, unknown> = {}): void {
  audit.record("sign_in.succeeded", {
    uid,
    actor: uid,
    subject: { type: "user", id: uid },
    detail: { factor, ...detail },
  });
}

/** A refused sign-in (form, passkey, second factor, HTTP Basic): `uid` is the name tried, when one was. */
export function recordSignInFailure(
  audit: AuditTrail,
  uid: string | undefined,
  factor: SignInFactor,
  reason: SignInFailureReason,
): void {
  audit.record("sign_in.failed", {
    uid: uid === undefined || uid === "" ? null : uid,
    ...(uid === undefined || uid === "" ? {} : { subject: { type: "user", id: uid } }),
    detail: { factor, reason },
  });
}
