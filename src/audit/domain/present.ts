import type { AuditEvent } from "../ports.js";

/**
 * An event as `./occ security:audit --output=json` prints it and the JSON-lines export writes it:
 * one shape for both, with the time in ISO 8601 (UTC) beside its epoch seconds.
 */
export function auditEventJson(event: AuditEvent) {
  return {
    id: event.id,
    time: new Date(event.at * 1000).toISOString().replace(".000Z", "Z"),
    at: event.at,
    kind: event.kind,
    actor: event.actor,
    user: event.uid,
    subject_type: event.subjectType,
    subject: event.subject,
    address: event.address,
    user_agent: event.userAgent,
    request_id: event.requestId,
    detail: event.detail,
  };
}
