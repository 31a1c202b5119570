/**
 * Every kind of audit event, in one list: the storage column, the filters of `./occ security:audit`
 * and of the administrators' page, and the catalogue's labels (`settings:audit.kind.<kind>`) all
 * take their names from here. docs/security.md says when each is written.
 */
export const AUDIT_KINDS = [
  // Interactive sign-ins (login form, passkey, second factor) and HTTP Basic failures.
  "sign_in.succeeded",
  "sign_in.failed",
  "session.ended",
  // Device credentials.
  "app_password.created",
  "app_password.revoked",
  "login_flow.granted",
  // OAuth 2.0 grants.
  "oauth.client_authorized",
  "oauth.refused_by_group",
  "oauth.grant_revoked",
  "oauth.refresh_reuse_detected",
  // Second factors (by the user, or by an administrator for them).
  "second_factor.enabled",
  "second_factor.disabled",
  "second_factor.enforcement_changed",
  // Administrative changes.
  "user.created",
  "user.deleted",
  "user.enabled",
  "user.disabled",
  "user.password_changed",
  "user.promoted",
  "user.demoted",
  "user.modified",
  "group.created",
  "group.deleted",
  "group.member_added",
  "group.member_removed",
  "client.added",
  "client.modified",
  "client.deleted",
  "client.secret_regenerated",
  "setting.changed",
  "setting.deleted",
  "throttle.reset",
] as const;

export type AuditKind = (typeof AUDIT_KINDS)[number];

const KINDS: ReadonlySet<string> = new Set(AUDIT_KINDS);

export function isAuditKind(text: string): text is AuditKind {
  return KINDS.has(text);
}

/** What an event is about, beside the user it concerns. */
export type AuditSubjectType = "user" | "client" | "group" | "setting" | "app_password" | "session" | "address" | "factor";

/** Who acted when no user did: an occ command, or the server itself (a background job). */
export const OCC_ACTOR = "occ";
export const SYSTEM_ACTOR = "system";
/** Who acted in a sign-in that names nobody proven yet (a failed attempt). */
export const ANONYMOUS_ACTOR = "anonymous";

/** How a sign-in was proven (or tried): the `factor` of a sign-in event's detail. */
export type SignInFactor = "password" | "app_password" | "passkey" | "totp" | "backup_codes" | "webauthn" | "basic";
