/**
 * What one node tells every node's push hub (src/push/hub.ts), and the text frames the hub sends.
 * The frames are nextcloud/notify_push's (`src/message.rs`): `notify_file`, `notify_activity`,
 * `notify_notification`, and `notify_file_id [ids]` for a connection that sent
 * `listen notify_file_id`.
 */
export type PushEvent =
  /** New activities of `uid`; `fileIds` when some of them are about files (empty: file ids unknown). */
  | { kind: "activity"; uid: string; fileIds?: number[] }
  /** A notification of `uid` was added or dismissed. */
  | { kind: "notification"; uid: string }
  /** `uid`'s credentials ended (an app password revoked, the user disabled or deleted): close its sockets. */
  | { kind: "end"; uid: string };

export const MESSAGE_FILE = "notify_file";
export const MESSAGE_ACTIVITY = "notify_activity";
export const MESSAGE_NOTIFICATION = "notify_notification";
export const MESSAGE_FILE_ID = "notify_file_id";
/** What a client sends to receive `notify_file_id` (nextcloud/notify_push `src/connection.rs`). */
export const LISTEN_FILE_ID = "listen notify_file_id";

/**
 * At most this many file ids travel in one event: a PostgreSQL NOTIFY payload is limited to 8000
 * bytes (PostgreSQL documentation, NOTIFY). With more, the event says "files changed" without ids,
 * and a listener gets `notify_file` alone (it then looks at everything, as without ids).
 */
export const MAX_FILE_IDS_PER_EVENT = 200;

/** The event as the short JSON a NOTIFY payload carries (the receiver reads nothing else). */
export function encodePushEvent(event: PushEvent): string {
  if (event.kind === "activity") {
    return JSON.stringify(event.fileIds ? { k: "a", u: event.uid, f: event.fileIds } : { k: "a", u: event.uid });
  }
  return JSON.stringify({ k: event.kind === "notification" ? "n" : "e", u: event.uid });
}

/** encodePushEvent's inverse; undefined for anything else (a payload from another writer). */
export function decodePushEvent(payload: string): PushEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { k, u, f } = parsed as { k?: unknown; u?: unknown; f?: unknown };
  if (typeof u !== "string") return undefined;
  if (k === "n") return { kind: "notification", uid: u };
  if (k === "e") return { kind: "end", uid: u };
  if (k !== "a") return undefined;
  if (f === undefined) return { kind: "activity", uid: u };
  if (!Array.isArray(f) || !f.every((id) => Number.isSafeInteger(id))) return undefined;
  return { kind: "activity", uid: u, fileIds: f as number[] };
}

/** An activity as the hub needs it: whose stream, and the file it is about, if any. */
export interface PublishedActivity {
  affecteduser: string;
  object_type: string;
  object_id: number;
}

/**
 * One event per affected user of the published activities: file ids for those about files
 * (`object_type` `files`, nextcloud/activity's file activities; id 0 is "unknown id"), capped at
 * MAX_FILE_IDS_PER_EVENT.
 */
export function eventsForActivities(rows: readonly PublishedActivity[]): PushEvent[] {
  const byUser = new Map<string, { files: boolean; ids: Set<number> }>();
  for (const row of rows) {
    let entry = byUser.get(row.affecteduser);
    if (!entry) {
      entry = { files: false, ids: new Set() };
      byUser.set(row.affecteduser, entry);
    }
    if (row.object_type === "files") {
      entry.files = true;
      if (row.object_id > 0) entry.ids.add(row.object_id);
    }
  }
  return [...byUser].map(([uid, { files, ids }]) => {
    if (!files) return { kind: "activity", uid };
    return { kind: "activity", uid, fileIds: ids.size <= MAX_FILE_IDS_PER_EVENT ? [...ids] : [] };
  });
}
