import type { Clock } from "../clock.js";
import { type AuditContext, currentAuditContext } from "./context.js";
import { type AuditKind, type AuditSubjectType, SYSTEM_ACTOR } from "./domain/kinds.js";
import type { AuditQuery } from "./domain/query.js";
import type { AuditEvent, AuditStore, NewAuditEvent } from "./ports.js";

/** What a caller says about an event; who acted and from where come from the audit context. */
export interface AuditEventInput {
  /** The user the event concerns. */
  uid?: string | null | undefined;
  subject?: { type: AuditSubjectType; id: string } | undefined;
  detail?: Readonly<Record<string, unknown>> | undefined;
  /** Overrides the context's actor (a sign-in names the user who signed in). */
  actor?: string | undefined;
}

/** What a domain service records into: the audit log, or nothing (tests that build a service alone). */
export interface AuditTrail {
  /** Queues the event; never throws and never waits for storage. */
  record(kind: AuditKind, event?: AuditEventInput): void;
}

export const NO_AUDIT: AuditTrail = { record() {} };

interface Logger {
  warn(obj: object, msg: string): void;
}

/** How long queued events wait for company before they are written together. */
const FLUSH_DELAY_MS = 100;
/** Events written by one statement at most; a longer queue is written in several. */
const BATCH_SIZE = 200;
/** Events held while storage fails; past this the oldest queued are dropped (and counted in the log). */
const MAX_QUEUED = 10_000;

const clip = (text: string | undefined | null, max: number) => (text == null ? null : text.slice(0, max));

/**
 * The audit log: events are queued by `record` (the request that caused one goes on at once) and
 * appended in batches, off the request's path, a moment later. A failed write is logged and its
 * batch dropped: writing an event never fails, nor delays, what caused it (docs/decisions.md).
 * `flush` writes what is queued now (occ before it exits, the server before it stops, a reader that
 * wants this node's latest events).
 */
export class AuditLog implements AuditTrail {
  private queue: NewAuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  record(kind: AuditKind, event: AuditEventInput = {}): void {
    this.recordIn(currentAuditContext(), kind, event);
  }

  /**
   * A trail that records with `context` given here rather than the running one: a route that has its
   * request at hand (a sign-in, the token endpoint) records without the request running in a context.
   */
  withContext(context: AuditContext): AuditTrail {
    return { record: (kind, event) => this.recordIn(context, kind, event) };
  }

  private recordIn(context: AuditContext | undefined, kind: AuditKind, event: AuditEventInput = {}): void {
    try {
      this.queue.push({
        at: this.clock.nowSeconds(),
        kind,
        actor: clip(event.actor ?? context?.actor() ?? SYSTEM_ACTOR, 64) as string,
        uid: clip(event.uid, 64),
        subjectType: event.subject?.type ?? null,
        subject: clip(event.subject?.id, 255),
        address: clip(context?.address, 64),
        userAgent: clip(context?.userAgent, 512),
        requestId: clip(context?.requestId, 64),
        detail: event.detail ?? null,
      });
      if (this.queue.length > MAX_QUEUED) {
        const dropped = this.queue.splice(0, this.queue.length - MAX_QUEUED);
        this.log.warn({ event: "audit_events_dropped", count: dropped.length }, "audit events dropped: storage is behind");
      }
      if (this.timer === undefined) {
        this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
        this.timer.unref();
      }
    } catch (error) {
      this.log.warn({ event: "audit_record_failed", kind, err: error }, "audit event not recorded");
    }
  }

  /** Writes every event queued so far (after any write under way); never throws. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: NewAuditEvent[]): Promise<void> {
    for (let start = 0; start < batch.length; start += BATCH_SIZE) {
      const part = batch.slice(start, start + BATCH_SIZE);
      try {
        await this.store.insert(part);
      } catch (error) {
        this.log.warn(
          { event: "audit_write_failed", count: part.length, kinds: [...new Set(part.map((e) => e.kind))], err: error },
          "audit events not written",
        );
      }
    }
  }

  /** The newest events first, this node's queued ones written before the read. */
  async query(query: AuditQuery): Promise<AuditEvent[]> {
    await this.flush();
    return this.store.query(query);
  }

  /** The retention: deletes the events older than `days` days; how many went. */
  purgeOlderThan(days: number): Promise<number> {
    return this.store.deleteOlderThan(this.clock.nowSeconds() - days * 86_400);
  }
}
