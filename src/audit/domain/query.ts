import { type Refusal, type Result, refused, succeeded } from "../../refusal.js";
import { type AuditKind, isAuditKind } from "./kinds.js";

/** What a page (or an export) of the audit log is limited to; every field optional but `limit`. */
export interface AuditQuery {
  /** Events that concern this user, or that this user (an actor) caused. */
  uid?: string | undefined;
  /** Events that concern this user only (a user's own view: not what they did to others). */
  concerning?: string | undefined;
  kind?: AuditKind | undefined;
  /** Epoch seconds, inclusive. */
  since?: number | undefined;
  /** Epoch seconds, exclusive (a date given as text: through the end of that day). */
  until?: number | undefined;
  /** Keyset paging: only events older than the event with this id (the "older" link's cursor). */
  before?: number | undefined;
  limit: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** The filters a query is made of, as the refusal of a wrong one names it. */
type AuditQueryField = "user" | "kind" | "since" | "until" | "before" | "limit";

/** A refused filter: `invalid_<field>`, the first wrong one. */
export type AuditQueryRefusalCode = `invalid_${AuditQueryField}`;

/** The refusal of `field`: its message is the English sentence occ prints and an export answers. */
function invalid(field: AuditQueryField, message: string): Refusal<AuditQueryRefusalCode> {
  return refused(`invalid_${field}`, { key: "audit:filter.invalid", values: { field } }, { message });
}

/**
 * A point in time as an administrator types it: epoch seconds, a date (`2026-11-27`, midnight UTC)
 * or an ISO 8601 date and time (`2026-11-27T13:00:00Z`; without a zone, UTC).
 */
export function parseAuditTime(text: string, field: "since" | "until"): Result<number, AuditQueryRefusalCode> {
  const trimmed = text.trim();
  if (/^\d{1,12}$/.test(trimmed)) return succeeded(Number(trimmed));
  const dated = /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
    ? `${trimmed}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/.test(trimmed)
      ? `${trimmed.replace(" ", "T")}Z`
      : trimmed;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(dated) ? Date.parse(dated) : Number.NaN;
  if (Number.isNaN(ms)) {
    return invalid(field, `${field} must be a date (2026-11-27), an ISO 8601 time or epoch seconds, not "${text}"`);
  }
  return succeeded(Math.floor(ms / 1000));
}

/** The filters as text (occ options, a page's query string): empty means absent. */
export interface AuditQueryText {
  user?: string | undefined;
  kind?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  before?: string | undefined;
  limit?: string | undefined;
}

const present = (text: string | undefined) => (text === undefined || text.trim() === "" ? undefined : text.trim());

/** Checks and converts the filters, or refuses the first wrong one. */
export function parseAuditQuery(
  text: AuditQueryText,
  defaultLimit = DEFAULT_PAGE_SIZE,
  maxLimit = MAX_PAGE_SIZE,
): Result<AuditQuery, AuditQueryRefusalCode> {
  const user = present(text.user);
  if (user !== undefined && user.length > 64) return invalid("user", "user must be a user name (at most 64 characters)");
  const kindText = present(text.kind);
  if (kindText !== undefined && !isAuditKind(kindText)) return invalid("kind", `unknown event kind "${kindText}"`);
  const sinceText = present(text.since);
  const untilText = present(text.until);
  const since = sinceText === undefined ? undefined : parseAuditTime(sinceText, "since");
  if (since?.ok === false) return since;
  // "Until 2026-11-27" includes that day, as a person reads a date range.
  const until = untilText === undefined ? undefined : parseAuditTime(untilText, "until");
  if (until?.ok === false) return until;
  const beforeText = present(text.before);
  if (beforeText !== undefined && !/^\d{1,15}$/.test(beforeText)) return invalid("before", "before must be an event id");
  const limitText = present(text.limit);
  if (limitText !== undefined && !/^\d{1,7}$/.test(limitText)) return invalid("limit", "limit must be a positive number");
  const limit = limitText === undefined ? defaultLimit : Number(limitText);
  if (limit < 1 || limit > maxLimit) return invalid("limit", `limit must be between 1 and ${maxLimit}`);
  return succeeded({
    uid: user,
    kind: kindText as AuditKind | undefined,
    since: since?.value,
    until: until === undefined ? undefined : until.value + (/^\d{4}-\d{2}-\d{2}$/.test(untilText ?? "") ? 86_400 : 0),
    before: beforeText === undefined ? undefined : Number(beforeText),
    limit,
  });
}
