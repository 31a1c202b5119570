import type { AuditKind, AuditSubjectType } from "../audit/domain/kinds.js";
import type { AuditQuery } from "../audit/domain/query.js";
import type { AuditEvent, AuditStore, NewAuditEvent } from "../audit/ports.js";
import type { Db } from "./database.js";
import type { AuditLogTable } from "./schema/audit.js";

function detailOf(text: string | null): Readonly<Record<string, unknown>> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

type Row = Omit<AuditLogTable, "id"> & { id: number | string };

function eventOf(row: Row): AuditEvent {
  return {
    id: Number(row.id),
    at: Number(row.at),
    kind: row.kind as AuditKind,
    actor: row.actor,
    uid: row.uid,
    subjectType: row.subject_type as AuditSubjectType | null,
    subject: row.subject,
    address: row.address,
    userAgent: row.user_agent,
    requestId: row.request_id,
    detail: detailOf(row.detail),
  };
}

/** audit/ports.ts AuditStore on either database (the same statements on both). */
export class SqlAuditStore implements AuditStore {
  constructor(private readonly db: Db) {}

  async insert(events: readonly NewAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db
      .insertInto("audit_log")
      .values(
        events.map((e) => ({
          at: e.at,
          kind: e.kind,
          actor: e.actor,
          uid: e.uid,
          subject_type: e.subjectType,
          subject: e.subject,
          address: e.address,
          user_agent: e.userAgent,
          request_id: e.requestId,
          detail: e.detail === null ? null : JSON.stringify(e.detail),
        })),
      )
      .execute();
  }

  async query(query: AuditQuery): Promise<AuditEvent[]> {
    let select = this.db.selectFrom("audit_log").selectAll();
    const { uid } = query;
    if (uid !== undefined) select = select.where((eb) => eb.or([eb("uid", "=", uid), eb("actor", "=", uid)]));
    if (query.concerning !== undefined) select = select.where("uid", "=", query.concerning);
    if (query.kind !== undefined) select = select.where("kind", "=", query.kind);
    if (query.since !== undefined) select = select.where("at", ">=", query.since);
    if (query.until !== undefined) select = select.where("at", "<", query.until);
    if (query.before !== undefined) select = select.where("id", "<", query.before);
    const rows = await select.orderBy("id", "desc").limit(query.limit).execute();
    return rows.map(eventOf);
  }

  async deleteOlderThan(at: number): Promise<number> {
    const result = await this.db.deleteFrom("audit_log").where("at", "<", at).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
