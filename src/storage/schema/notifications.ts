import type { Generated } from "kysely";
import type { EpochSeconds } from "./accounts.js";

/** A user's notifications (migration 0025): the kind and its text's parameters, rendered when read. */
export interface NotificationsTable {
  id: Generated<number>;
  uid: string;
  /** src/notifications/domain/kinds.ts NotificationKind. */
  kind: string;
  /** The text's parameters as a JSON object of strings. */
  params: string;
  object_type: string;
  object_id: string;
  created_at: EpochSeconds;
}

/** Written on SQLite only (migration 0029): credentials ended by another process, for the push sockets' process. */
export interface PushEndsTable {
  id: Generated<number>;
  uid: string;
  created_at: EpochSeconds;
}

export interface NotificationTables {
  notifications: NotificationsTable;
  push_ends: PushEndsTable;
}
