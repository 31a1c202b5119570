import type { groups } from "../i18n/catalogues/en/groups.js";
import type { MessageValues } from "../i18n/index.js";
import { type Refusal, type Result, refused } from "../refusal.js";

export type GroupErrorCode =
  | "invalid_gid"
  | "group_exists"
  | "no_such_group"
  | "admin_undeletable"
  | "group_in_use"
  | "last_admin"
  | "unknown_groups";

/** Which sentence says what was refused (the `groups` catalogue). */
type GroupErrorText = keyof typeof groups;

/** A refused group operation (src/refusal.ts): `message` in English (occ, logs), `phrase` for a page. */
export type GroupRefusal = Refusal<GroupErrorCode>;

/** A group operation's outcome: its value, or the refusal. */
export type GroupResult<T> = Result<T, GroupErrorCode>;

/** The refusal with `code`, told by the `groups` sentence `text`. */
export function groupRefusal(code: GroupErrorCode, text: GroupErrorText, values: MessageValues = {}): GroupRefusal {
  return refused(code, { key: `groups:${text}`, values });
}
