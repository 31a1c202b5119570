import { eventsForActivities, type PushEvent } from "../../../push/domain/events.js";
import type { PushChannel } from "../../../push/ports.js";
import type { Db } from "../../driver/database.js";

/**
 * While this node has sockets open, the tables below are read this often (ms) for rows another
 * process wrote (`./occ activity:publish`, the proxy-log follower run by `occ`, `./occ
 * notification:generate`): one indexed range read per table, nothing new being the usual answer.
 */
export const SQLITE_PUSH_POLL_MS = 500;
/** Rows read per statement; a longer backlog is read in several. */
const ROWS_PER_READ = 500;

/**
 * A table whose new rows are push events. Its id only grows (SQLite `AUTOINCREMENT`: an id is
 * never used again, and with one writer at a time the ids commit in order), so "after the last id
 * read" is every row written since.
 */
interface PolledTable {
  /** The event kind the rows stand for: in-process events of this kind wait for the read. */
  kind: PushEvent["kind"];
  /** The newest id now (0 for an empty table). */
  newest(db: Db): Promise<number>;
  /** Up to `limit` rows after `after`, oldest first: the newest id among them and their events. */
  after(db: Db, after: number, limit: number): Promise<{ last: number; count: number; events: PushEvent[] }>;
}

const activityTable: PolledTable = {
  kind: "activity",
  async newest(db) {
    const row = await db
      .selectFrom("activity")
      .select((eb) => eb.fn.max("activity_id").as("id"))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  },
  async after(db, after, limit) {
    const rows = await db
      .selectFrom("activity")
      .select(["activity_id", "affecteduser", "object_type", "object_id"])
      .where("activity_id", ">", after)
      .orderBy("activity_id")
      .limit(limit)
      .execute();
    return { last: rows.at(-1)?.activity_id ?? after, count: rows.length, events: eventsForActivities(rows) };
  },
};

/** A table of rows naming a user, each row one event of `kind` for that user. */
function userEventTable(table: "notifications" | "push_ends", kind: "notification" | "end"): PolledTable {
  return {
    kind,
    async newest(db) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },
    async after(db, after, limit) {
      const rows = await db.selectFrom(table).select(["id", "uid"]).where("id", ">", after).orderBy("id").limit(limit).execute();
      const users = [...new Set(rows.map((row) => row.uid))];
      return { last: rows.at(-1)?.id ?? after, count: rows.length, events: users.map((uid): PushEvent => ({ kind, uid })) };
    },
  };
}

/** New notifications (`./occ notification:generate`): `notify_notification` to their users. */
const notificationTable = userEventTable("notifications", "notification");

/** Credentials ended (`./occ user:disable`, an app password revoked with occ): the user's sockets close. */
const endTable = userEventTable("push_ends", "end");

/** A `push_ends` row is read within a poll; an hour later it is of no use to anyone. */
const END_ROW_LIFETIME_SECONDS = 3600;

/** Every table read; a table of another kind of event is one more entry. */
const POLLED_TABLES: readonly PolledTable[] = [activityTable, notificationTable, endTable];

/**
 * One node on SQLite. Events are delivered in this process; and since another process writing to
 * the same file (`./occ`) cannot reach this one, the tables of POLLED_TABLES (activities,
 * notifications, ended credentials) are read for new rows
 * while sockets are open, every SQLITE_PUSH_POLL_MS and at once after a write in this process.
 *
 * An event is delivered once: an in-process event of a polled kind waits for the read that follows
 * it, which turns the rows into events; only when that read found no row of its user (a row that
 * was not read, or an event with no row, such as a dismissal) is the event delivered as it came.
 */
export class SqlitePushChannel implements PushChannel {
  private deliver: ((event: PushEvent) => void) | undefined;
  /** The last id read per table; undefined while no socket is open (nothing is read). */
  private marks: number[] | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  /** In-process events of polled kinds, waiting for the next read. */
  private waiting: PushEvent[] = [];

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
    private readonly pollMs = SQLITE_PUSH_POLL_MS,
  ) {}

  async publish(events: readonly PushEvent[]): Promise<void> {
    const ends = events.filter((event) => event.kind === "end");
    // Ended credentials have no row of their own to read: they are written down for whichever
    // process holds the user's sockets (this one or the server, when this is occ).
    if (ends.length > 0) await this.recordEnds(ends.map((event) => event.uid)).catch(this.onError);
    if (!this.deliver) return;
    const now: PushEvent[] = [];
    for (const event of events) {
      if (this.timer && POLLED_TABLES.some((table) => table.kind === event.kind)) this.waiting.push(event);
      else now.push(event);
    }
    if (now.length > 0) {
      const deliver = this.deliver;
      queueMicrotask(() => {
        for (const event of now) deliver(event);
      });
    }
    if (this.waiting.length > 0) this.read();
  }

  async subscribe(deliver: (event: PushEvent) => void): Promise<void> {
    this.deliver = deliver;
  }

  /** Reads while sockets are open; stops reading (and forgets where it was) when none is. */
  watch(open: boolean): void {
    if (open && !this.timer) {
      this.timer = setInterval(() => this.read(), this.pollMs);
      this.timer.unref();
      this.read();
    } else if (!open && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.marks = undefined;
    }
  }

  /** Whether the tables are being read now (no socket open: not). */
  get polling(): boolean {
    return this.timer !== undefined;
  }

  async close(): Promise<void> {
    this.watch(false);
    this.deliver = undefined;
    this.waiting = [];
    await this.reading;
  }

  private async recordEnds(uids: readonly string[]): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    await this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom("push_ends")
        .where("created_at", "<", now - END_ROW_LIFETIME_SECONDS)
        .execute();
      await tx
        .insertInto("push_ends")
        .values(uids.map((uid) => ({ uid, created_at: now })))
        .execute();
    });
  }

  /** One read at a time; a read asked for meanwhile runs right after it. */
  private read(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        await this.readOnce().catch(this.onError);
      } while (this.readAgain);
    })().finally(() => {
      this.reading = undefined;
    });
  }

  private async readOnce(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = [];
    const read: PushEvent[] = [];
    // The first read after the first socket opened starts from the newest rows.
    if (this.timer && !this.marks) {
      const newest = await Promise.all(POLLED_TABLES.map((table) => table.newest(this.db)));
      if (this.timer) this.marks ??= newest;
    }
    const marks = this.timer ? this.marks : undefined;
    if (marks) {
      for (const [i, table] of POLLED_TABLES.entries()) {
        for (;;) {
          const rows = await table.after(this.db, marks[i] ?? 0, ROWS_PER_READ);
          marks[i] = rows.last;
          read.push(...rows.events);
          if (rows.count < ROWS_PER_READ) break;
        }
      }
    }
    const deliver = this.deliver;
    if (!deliver) return;
    const told = new Set(read.map((event) => `${event.kind} ${event.uid}`));
    for (const event of read) deliver(event);
    for (const event of waiting) if (!told.has(`${event.kind} ${event.uid}`)) deliver(event);
  }
}
