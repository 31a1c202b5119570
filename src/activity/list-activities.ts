import type { ActivityRow, ActivityStore } from "../storage/activity-store.js";
import { resolveSince } from "./domain/cursor.js";
import { type StreamEntry, toStreamEntry } from "./domain/element.js";
import { fail, ok, type Result } from "./domain/errors.js";
import { findFilter, streamDisabled } from "./domain/filters.js";
import { groupActivities, type StoredActivity } from "./domain/grouping.js";
import { cutPage, etagOf, type ListQuery, nextPageQuery } from "./domain/page.js";
import { decodeParameters, type Parameter } from "./domain/parameters.js";
import type { RenderContext } from "./domain/prepared-text.js";
import { effectiveStreamSettings, hiddenTypes } from "./domain/stream-settings.js";

export interface StreamPage {
  query: ListQuery;
  entries: StreamEntry[];
  /** How the entries were rendered (base URL, display names), for the web page's HTML. */
  context: RenderContext;
  /** X-Activity-Last-Given: set when at least one row was consumed. */
  lastGiven: number | undefined;
  /** X-Activity-First-Known: set when `since` was absent or unknown and the user has activities. */
  firstKnown: number | undefined;
  /** Query string of the next page (for `Link: <…>; rel="next"`), when there is one. */
  nextQuery: string | undefined;
  etag: string;
}

export function decodeRow(row: ActivityRow): StoredActivity {
  return {
    activity_id: row.activity_id,
    timestamp: Number(row.timestamp),
    app: row.app,
    type: row.type,
    user: row.user,
    affecteduser: row.affecteduser,
    subject: row.subject,
    subjectparams: decodeParameters(row.subjectparams),
    message: row.message,
    messageparams: decodeParameters(row.messageparams),
    link: row.link,
    object_type: row.object_type,
    object_id: Number(row.object_id),
    object_name: row.object_name,
  };
}

function userIdsIn(params: readonly Parameter[], into: Set<string>): void {
  for (const p of params) {
    if (p.type === "user" && p.value !== "") into.add(p.value);
    if (p.type === "collection") userIdsIn(p.value, into);
  }
}

/** Rows → grouped, rendered entries (display names looked up once for the page). */
export async function renderRows(
  store: ActivityStore,
  rows: readonly ActivityRow[],
  baseUrl: string,
  group = true,
): Promise<{ entries: StreamEntry[]; context: RenderContext }> {
  const decoded = rows.map(decodeRow);
  const groups = group ? groupActivities(decoded) : decoded.map((row) => ({ members: [row], subjectparams: row.subjectparams }));
  const uids = new Set<string>();
  for (const group of groups) {
    userIdsIn(group.subjectparams, uids);
    userIdsIn(group.members[0]!.messageparams, uids);
  }
  const names = await store.displayNames([...uids]);
  const context: RenderContext = { baseUrl, displayName: (uid: string) => names.get(uid) };
  return { entries: groups.map((group) => toStreamEntry(group, context)), context };
}

/**
 * One page of a user's stream. Checks in upstream's order (research §1.5): filter (404), stream
 * settings (204), `since` of another user (403); the caller then answers 304 or 200.
 */
export async function listActivities(
  store: ActivityStore,
  uid: string,
  query: ListQuery,
  baseUrl: string,
): Promise<Result<StreamPage>> {
  const filter = findFilter(query.filter);
  if (!filter) return fail({ code: "unknown_filter", filter: query.filter });
  const settings = effectiveStreamSettings(await store.streamSettings(uid));
  if (streamDisabled(filter, settings)) return fail({ code: "stream_disabled", filter: filter.id });

  const sinceRow = query.since === undefined ? undefined : await store.findPosition(query.since);
  const since = resolveSince(query.since, sinceRow, uid, query.sort);
  if (since.kind === "foreign") return fail({ code: "foreign_since", since: query.since ?? 0 });
  const firstKnown = since.kind === "bound" ? undefined : await store.firstKnown(uid, query.sort);

  const fetched = await store.page({
    uid,
    selection: filter.select(query),
    bound: since.kind === "bound" ? since.bound : undefined,
    sort: query.sort,
    hiddenTypes: hiddenTypes(settings),
    fetch: query.limit + 1,
  });
  const cut = cutPage(fetched, query.limit);
  const { entries, context } = await renderRows(store, cut.rows, baseUrl);
  return ok({
    query,
    entries,
    context,
    lastGiven: cut.lastGiven,
    firstKnown,
    nextQuery: cut.hasMore && cut.lastGiven !== undefined ? nextPageQuery(query, cut.lastGiven) : undefined,
    etag: etagOf(entries.map((e) => e.element.activity_id)),
  });
}
