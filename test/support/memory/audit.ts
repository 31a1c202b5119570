import type { AuditQuery } from "../../../src/audit/domain/query.js";
import type { AuditEvent, AuditStore, NewAuditEvent } from "../../../src/audit/ports.js";

/** audit/ports.ts AuditStore in memory (src/storage/stores/audit/audit-store.ts is the SQL one): append-only. */
export class MemoryAuditStore implements AuditStore {
  private readonly events: AuditEvent[] = [];
  private nextId = 1;

  async insert(events: readonly NewAuditEvent[]): Promise<void> {
    for (const event of events) this.events.push({ ...event, id: this.nextId++ });
  }

  async query(query: AuditQuery): Promise<AuditEvent[]> {
    const { uid, concerning, kind, since, until, before } = query;
    return this.events
      .filter(
        (e) =>
          (uid === undefined || e.uid === uid || e.actor === uid) &&
          (concerning === undefined || e.uid === concerning) &&
          (kind === undefined || e.kind === kind) &&
          (since === undefined || e.at >= since) &&
          (until === undefined || e.at < until) &&
          (before === undefined || e.id < before),
      )
      .sort((a, b) => b.id - a.id)
      .slice(0, query.limit)
      .map((e) => ({ ...e }));
  }

  async deleteOlderThan(at: number): Promise<number> {
    const kept = this.events.filter((e) => e.at >= at);
    const deleted = this.events.length - kept.length;
    this.events.splice(0, this.events.length, ...kept);
    return deleted;
  }
}
