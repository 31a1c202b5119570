import type { Generated } from "kysely";
import type { ActivityRow } from "../../activity/ports.js";
import type { EpochSeconds } from "./accounts.js";

/**
 * One row per activity and affected user, as nextcloud/activity's `activity` table
 * (docs/upstream/nextcloud-activity.md §7). Strings that
 * upstream leaves nullable are `''` here, so conditions never have to think about NULL. The
 * columns are activity/ports.ts ActivityRow's.
 */
export interface ActivityTable extends Omit<ActivityRow, "activity_id" | "timestamp"> {
  activity_id: Generated<number>;
  timestamp: EpochSeconds;
}

/** A user's choice for one stream setting type; absent rows mean the type's default. */
export interface ActivityStreamSettingsTable {
  uid: string;
  type: string;
  enabled: number;
}

/**
 * A publish made with an idempotency key (draft-ietf-httpapi-idempotency-key-header), written in
 * the same transaction as the events it records, so there is never one without the other.
 */
export interface IdempotencyKeyTable {
  /** `user:<uid>` or `occ` (activity/domain/idempotency.ts publisherScope). */
  scope: string;
  idempotency_key: string;
  /** The publishing user for `user:` scopes (references users.uid, ON DELETE CASCADE); null for occ. */
  uid: string | null;
  /** SHA-256 hex of the request body (requestFingerprint). */
  fingerprint: string;
  /** The first answer: JSON array of the activity ids written. */
  result: string;
  created_at: EpochSeconds;
}

/** How far one proxy access log has been read (activity/file-log-follower.ts). */
export interface FileLogCursorTable {
  /** SHA-256 hex of the log's first line: the same file on every node, a new one after rotation. */
  log_id: string;
  /** Byte offset just past the last line read. */
  position: number;
  updated_at: EpochSeconds;
}

/** A proxy log request (nginx `$request_id`) that was turned into an activity: at most once. */
export interface FileLogRequestTable {
  request_id: string;
  /** When the request was made (its log line's time), epoch seconds; purged with retention. */
  requested_at: EpochSeconds;
}

export interface ActivityTables {
  activity: ActivityTable;
  activity_stream_settings: ActivityStreamSettingsTable;
  idempotency_keys: IdempotencyKeyTable;
  file_log_cursors: FileLogCursorTable;
  file_log_requests: FileLogRequestTable;
}
