import type { AuditKind } from "../../../src/audit/domain/kinds.js";
import type { AuditEventInput, AuditTrail } from "../../../src/audit/recorder.js";

/** An audit trail that keeps what it was asked to record, for a service's unit test. */
export class RecordedTrail implements AuditTrail {
  readonly events: Array<{ kind: AuditKind } & AuditEventInput> = [];

  record(kind: AuditKind, event: AuditEventInput = {}): void {
    this.events.push({ kind, ...event });
  }

  kinds(): AuditKind[] {
    return this.events.map((e) => e.kind);
  }
}
