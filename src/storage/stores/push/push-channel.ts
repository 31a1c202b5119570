import { sql } from "kysely";
import type pg from "pg";
import { decodePushEvent, encodePushEvent, type PushEvent } from "../../../push/domain/events.js";
import type { PushChannel } from "../../../push/ports.js";
import type { Storage } from "../../driver/connect.js";
import { SqlitePushChannel } from "./push-channel-sqlite.js";

/** The PostgreSQL channel every node LISTENs on (PostgreSQL documentation, NOTIFY / LISTEN). */
export const PUSH_NOTIFY_CHANNEL = "keystream_push";
/** After a lost LISTEN connection, the next attempt waits this long (ms), doubling up to the cap. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/**
 * The push channel for this storage: in process on SQLite (one node; rows other processes write are
 * read while sockets are open: push-channel-sqlite.ts), LISTEN/NOTIFY on PostgreSQL.
 */
export function openPushChannel(
  storage: Storage,
  onError: (error: unknown) => void = () => undefined,
  reconnectFirstMs = RECONNECT_FIRST_MS,
): PushChannel {
  const { dedicatedClient } = storage;
  if (storage.dialect === "postgres" && dedicatedClient) {
    return new PostgresPushChannel(storage, dedicatedClient, onError, reconnectFirstMs);
  }
  return new SqlitePushChannel(storage.db, onError);
}

/**
 * Several nodes on one PostgreSQL database: a publish is `pg_notify` through the pool (one
 * statement per publish, small payloads: push/domain/events.ts), and each node LISTENs on a
 * connection of its own. A lost listening connection is opened again (with a growing wait), and
 * once it listens again the subscriber is told to catch up (events sent meanwhile are lost:
 * NOTIFY is not queued for a session that is not listening).
 */
class PostgresPushChannel implements PushChannel {
  private client: pg.Client | undefined;
  private deliver: ((event: PushEvent) => void) | undefined;
  private resumed: (() => void) | undefined;
  private closed = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly newClient: () => pg.Client,
    private readonly onError: (error: unknown) => void,
    private readonly reconnectFirstMs: number,
  ) {}

  async publish(events: readonly PushEvent[]): Promise<void> {
    if (events.length === 0) return;
    // One statement for all: NOTIFYs of one transaction are delivered in the order they were sent.
    const payloads = events.map(encodePushEvent);
    await sql`SELECT pg_notify(${PUSH_NOTIFY_CHANNEL}, payload) FROM unnest(${payloads}::text[]) WITH ORDINALITY AS p(payload, n) ORDER BY n`.execute(
      this.storage.db,
    );
  }

  async subscribe(deliver: (event: PushEvent) => void, resumed: () => void): Promise<void> {
    this.deliver = deliver;
    this.resumed = resumed;
    // A database that cannot be reached now is tried again; the sockets open meanwhile catch up.
    await this.listen().catch((error: unknown) => {
      this.onError(error);
      this.retry(this.reconnectFirstMs);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = this.newClient();
    client.on("notification", (message) => {
      if (message.channel !== PUSH_NOTIFY_CHANNEL || message.payload === undefined) return;
      const event = decodePushEvent(message.payload);
      if (event) this.deliver?.(event);
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${PUSH_NOTIFY_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    if (error !== undefined) this.onError(error);
    client.end().catch(() => undefined);
    this.retry(this.reconnectFirstMs);
  }

  private retry(waitMs: number): void {
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed) return;
      this.listen().then(
        () => {
          if (!this.closed) this.resumed?.();
        },
        (error: unknown) => {
          this.onError(error);
          this.retry(Math.min(waitMs * 2, RECONNECT_MAX_MS));
        },
      );
    }, waitMs);
    this.retryTimer.unref();
  }
}
