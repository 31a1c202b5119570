/**
 * What the push hub needs from below: a channel that carries events from whichever node published
 * them to every node (docs/architecture.md). Only `src/storage/` implements it: in process for
 * SQLite (one node, and the rows other processes write), PostgreSQL LISTEN/NOTIFY for several.
 */
import type { PushEvent } from "./domain/events.js";

export interface PushChannel {
  /**
   * Sends the events to every node subscribed, this one included. Resolves once they are handed
   * to the database (PostgreSQL) or delivered (in process). Best effort, as nextcloud/notify_push's
   * delivery: a node that is not listening at that moment never sees them.
   */
  publish(events: readonly PushEvent[]): Promise<void>;
  /**
   * Starts delivering every node's events to `deliver`, in the order each publisher sent them.
   * When the channel lost its connection and listens again, `resumed` is called once it does:
   * events may have been missed in between.
   */
  subscribe(deliver: (event: PushEvent) => void, resumed: () => void): Promise<void>;
  /**
   * Whether this node has sockets open (the hub tells each change). A channel that has to look for
   * events itself (SQLite: rows other processes wrote) looks only while there are.
   */
  watch?(open: boolean): void;
  /** Stops delivering and lets go of any connection. */
  close(): Promise<void>;
}
