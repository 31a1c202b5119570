import type { AuditKind, AuditSubjectType } from "../../../audit/domain/kinds.js";
import type { AuditQuery } from "../../../audit/domain/query.js";
import type { AuditEvent, AuditStore, NewAuditEvent } from "../../../audit/ports.js";
import type { Db, Dialect } from "../../driver/database.js";
import { PreparedQuery, transaction } from "../../driver/prepared.js";
import type { AuditLogTable } from "../../schema/audit.js";

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

type NewRow = Omit<AuditLogTable, "id">;

function rowOf(e: NewAuditEvent): NewRow {
  return {
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
  };
}

/**
 * audit/ports.ts AuditStore on either database. A batch is one transaction of one prepared row
 * insert per event on SQLite (run on the handle: no query building per batch), and one multi-row
 * INSERT on PostgreSQL (one round trip).
 */
export class SqlAuditStore implements AuditStore {
  private readonly insertRow: PreparedQuery<NewRow, unknown>;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {
    this.insertRow = new PreparedQuery<NewRow, unknown>((slot) =>
      db.insertInto("audit_log").values({
        at: slot("at"),
        kind: slot("kind"),
        actor: slot("actor"),
        uid: slot("uid"),
        subject_type: slot("subject_type"),
        subject: slot("subject"),
        address: slot("address"),
        user_agent: slot("user_agent"),
        request_id: slot("request_id"),
        detail: slot("detail"),
      }),
    );
  }

  async insert(events: readonly NewAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (this.dialect === "sqlite") {
      await transaction(this.db, async (trx) => {
        for (const event of events) await this.insertRow.execute(trx, rowOf(event));
      });
      return;
    }
    await this.db.insertInto("audit_log").values(events.map(rowOf)).execute();
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
