import type { AuditKind, AuditSubjectType } from "./domain/kinds.js";
import type { AuditQuery } from "./domain/query.js";

/** An event as it is written: everything but its id. */
export interface NewAuditEvent {
  /** Epoch seconds. */
  at: number;
  kind: AuditKind;
  /** A uid, or `occ`, `system`, `anonymous` (domain/kinds.ts). */
  actor: string;
  /** The user the event concerns (whose own view lists it); null for events about no user. */
  uid: string | null;
  subjectType: AuditSubjectType | null;
  /** The client id, group id, setting name, app password name… */
  subject: string | null;
  address: string | null;
  userAgent: string | null;
  /** The X-Request-Id of the request that caused it (the access log's `reqId`). */
  requestId: string | null;
  /** A small JSON object (the factor of a sign-in, the fields a change touched). */
  detail: Readonly<Record<string, unknown>> | null;
}

export interface AuditEvent extends NewAuditEvent {
  id: number;
}

/**
 * The audit log's storage: append-only. No method changes or deletes one event; the retention
 * deletes by age only.
 */
export interface AuditStore {
  /** Appends the events in one statement, in order (ids ascending in that order). */
  insert(events: readonly NewAuditEvent[]): Promise<void>;
  /**
   * The newest events matching the query first (id descending), at most `limit`; `uid` matches the
   * user concerned or the actor.
   */
  query(query: AuditQuery): Promise<AuditEvent[]>;
  /** Deletes the events older than `at` (epoch seconds); how many went. */
  deleteOlderThan(at: number): Promise<number>;
}
