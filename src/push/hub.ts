import {
  LISTEN_FILE_ID,
  MESSAGE_ACTIVITY,
  MESSAGE_FILE,
  MESSAGE_FILE_ID,
  MESSAGE_NOTIFICATION,
  type PushEvent,
} from "./domain/events.js";
import type { PushChannel } from "./ports.js";

/** A websocket as the hub uses it (the HTTP layer adapts the library's socket). */
export interface PushSocket {
  send(text: string): void;
  ping(): void;
  close(code: number, reason: string): void;
  /** Drops the connection without a closing handshake (a peer that stopped answering). */
  terminate(): void;
}

/** nextcloud/notify_push `src/connection.rs`: at most this many connections per user. */
export const MAX_CONNECTIONS_PER_USER = 64;
/** nextcloud/notify_push: a ping every 30 s; a connection that has not answered the last one is closed. */
export const PING_INTERVAL_MS = 30_000;
/**
 * Per connection and message kind: the first message goes at once, later ones within this window
 * are merged into one sent at its end (docs/decisions.md, the push debounce).
 */
export const DEBOUNCE_MS = 1000;
/** RFC 6455 §7.4.1: 1001, the endpoint is going away (a server shutting down). */
export const CLOSE_GOING_AWAY = 1001;
/** RFC 6455 §7.4.1: 1008, a policy violation (here: the credentials no longer hold). */
const CLOSE_POLICY = 1008;

type Kind = typeof MESSAGE_FILE | typeof MESSAGE_ACTIVITY | typeof MESSAGE_NOTIFICATION | typeof MESSAGE_FILE_ID;

interface Connection {
  socket: PushSocket;
  uid: string;
  alive: boolean;
  listensFileIds: boolean;
  /** When each kind was last sent (ms), and what waits for the end of its window. */
  lastSent: Map<Kind, number>;
  waiting: Map<Kind, { timer: ReturnType<typeof setTimeout>; ids: Set<number> }>;
}

export interface PushHubOptions {
  /** Milliseconds now (tests move it). */
  now?: () => number;
  debounceMs?: number;
}

/**
 * This node's authenticated push connections, per user, and the delivery of events to them
 * (nextcloud/notify_push's protocol, without its separate daemon and Redis: events come through
 * the PushChannel).
 */
export class PushHub {
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly bySocket = new Map<PushSocket, Connection>();
  private readonly now: () => number;
  /** The debounce window (ms): DEBOUNCE_MS unless told otherwise; tests set 0 to count every message. */
  debounceMs: number;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private subscribed: Promise<void> | undefined;

  constructor(
    private readonly channel: PushChannel,
    options: PushHubOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.debounceMs = options.debounceMs ?? DEBOUNCE_MS;
  }

  /** Subscribes to the channel (once) and starts the pings; called at the first connection. */
  start(): Promise<void> {
    this.subscribed ??= this.channel.subscribe(
      (event) => this.deliver(event),
      () => this.catchUp(),
    );
    if (!this.heartbeatTimer) {
      this.heartbeatTimer = setInterval(() => this.heartbeat(), PING_INTERVAL_MS);
      this.heartbeatTimer.unref();
    }
    return this.subscribed;
  }

  /** Connections open now, on this node. */
  get size(): number {
    return this.bySocket.size;
  }

  /** Takes an authenticated socket of `uid`; false (not taken) when the user has the most allowed. */
  add(uid: string, socket: PushSocket): boolean {
    let set = this.byUser.get(uid);
    if (set && set.size >= MAX_CONNECTIONS_PER_USER) return false;
    if (!set) {
      set = new Set();
      this.byUser.set(uid, set);
    }
    const connection: Connection = {
      socket,
      uid,
      alive: true,
      listensFileIds: false,
      lastSent: new Map(),
      waiting: new Map(),
    };
    set.add(connection);
    this.bySocket.set(socket, connection);
    if (this.bySocket.size === 1) this.channel.watch?.(true);
    return true;
  }

  /** Forgets a socket that closed. */
  remove(socket: PushSocket): void {
    const connection = this.bySocket.get(socket);
    if (!connection) return;
    this.bySocket.delete(socket);
    for (const { timer } of connection.waiting.values()) clearTimeout(timer);
    const set = this.byUser.get(connection.uid);
    set?.delete(connection);
    if (set?.size === 0) this.byUser.delete(connection.uid);
    if (this.bySocket.size === 0) this.channel.watch?.(false);
  }

  /** A text frame from an authenticated client: `listen notify_file_id` is the one it may send. */
  received(socket: PushSocket, text: string): void {
    const connection = this.bySocket.get(socket);
    if (connection && text.trim() === LISTEN_FILE_ID) connection.listensFileIds = true;
  }

  /** The socket answered a ping. */
  pong(socket: PushSocket): void {
    const connection = this.bySocket.get(socket);
    if (connection) connection.alive = true;
  }

  /** Every PING_INTERVAL_MS: drops connections that did not answer the last ping, pings the rest. */
  heartbeat(): void {
    for (const connection of [...this.bySocket.values()]) {
      if (!connection.alive) {
        this.remove(connection.socket);
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }

  /** Publishes events to every node (this one included) through the channel. */
  publish(events: readonly PushEvent[]): Promise<void> {
    return events.length === 0 ? Promise.resolve() : this.channel.publish(events);
  }

  /** An event from the channel, for this node's sockets. */
  deliver(event: PushEvent): void {
    const set = this.byUser.get(event.uid);
    if (!set) return;
    for (const connection of [...set]) {
      if (event.kind === "end") {
        this.remove(connection.socket);
        connection.socket.close(CLOSE_POLICY, "credentials ended");
      } else if (event.kind === "notification") {
        this.send(connection, MESSAGE_NOTIFICATION);
      } else {
        this.send(connection, MESSAGE_ACTIVITY);
        if (!event.fileIds) continue;
        if (connection.listensFileIds && event.fileIds.length > 0) this.send(connection, MESSAGE_FILE_ID, event.fileIds);
        else this.send(connection, MESSAGE_FILE);
      }
    }
  }

  /**
   * After the channel missed events (a lost database connection): every local socket hears that
   * activities, files and notifications may have changed, and looks itself.
   */
  catchUp(): void {
    for (const connection of this.bySocket.values()) {
      this.send(connection, MESSAGE_ACTIVITY);
      this.send(connection, MESSAGE_FILE);
      this.send(connection, MESSAGE_NOTIFICATION);
    }
  }

  /** Closes every socket with 1001 (a shutting-down server) and stops the pings and the channel. */
  async close(): Promise<void> {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    for (const connection of [...this.bySocket.values()]) {
      this.remove(connection.socket);
      connection.socket.close(CLOSE_GOING_AWAY, "server shutting down");
    }
    await this.channel.close();
  }

  private send(connection: Connection, kind: Kind, ids: readonly number[] = []): void {
    const waiting = connection.waiting.get(kind);
    if (waiting) {
      for (const id of ids) waiting.ids.add(id);
      return;
    }
    const last = connection.lastSent.get(kind);
    const now = this.now();
    if (last === undefined || now - last >= this.debounceMs) {
      this.write(connection, kind, ids);
      return;
    }
    const timer = setTimeout(
      () => {
        const held = connection.waiting.get(kind);
        connection.waiting.delete(kind);
        if (held) this.write(connection, kind, [...held.ids]);
      },
      this.debounceMs - (now - last),
    );
    timer.unref();
    connection.waiting.set(kind, { timer, ids: new Set(ids) });
  }

  private write(connection: Connection, kind: Kind, ids: readonly number[]): void {
    connection.lastSent.set(kind, this.now());
    connection.socket.send(kind === MESSAGE_FILE_ID ? `${kind} ${JSON.stringify(ids)}` : kind);
  }
}
