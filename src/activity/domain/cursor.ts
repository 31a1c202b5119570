/**
 * Keyset paging over the pair (timestamp, activity_id) (docs/upstream/nextcloud-activity.md §3).
 *
 * Upstream bounds `timestamp <= T AND activity_id < since`, which skips a row published later
 * with an older timestamp (publish accepts a `datetime`). Comparing the pair lexicographically
 * never skips or repeats a row, and with indexes ending in (timestamp, activity_id) it is one
 * range scan: `(timestamp, activity_id) < (T, since)` for `desc`, `>` for `asc`.
 */
export type SortOrder = "asc" | "desc";

export interface Position {
  timestamp: number;
  activityId: number;
}

export interface KeysetBound extends Position {
  /** Rows strictly below the position (`desc`) or strictly above it (`asc`). */
  comparison: "<" | ">";
}

export function boundAfter(position: Position, sort: SortOrder): KeysetBound {
  return { ...position, comparison: sort === "desc" ? "<" : ">" };
}

/** What the `since` id means for this user (docs/upstream/nextcloud-activity.md §3). */
export type SinceResolution =
  | { kind: "none" }
  /** Unknown id: start from the top, and tell the client the first known id (X-Activity-First-Known). */
  | { kind: "unknown" }
  | { kind: "foreign" }
  | { kind: "bound"; bound: KeysetBound };

export function resolveSince(
  since: number | undefined,
  row: { affecteduser: string; timestamp: number; activity_id: number } | undefined,
  uid: string,
  sort: SortOrder,
): SinceResolution {
  if (since === undefined) return { kind: "none" };
  if (!row) return { kind: "unknown" };
  if (row.affecteduser !== uid) return { kind: "foreign" };
  return { kind: "bound", bound: boundAfter({ timestamp: row.timestamp, activityId: row.activity_id }, sort) };
}
