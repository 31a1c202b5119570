import { resolveSince } from "./domain/cursor.js";
import { type StreamEntry, toStreamEntry } from "./domain/element.js";
import { fail, ok, type Result } from "./domain/errors.js";
import { findFilter, streamDisabled } from "./domain/filters.js";
import { type ActivityGroup, decodeRow, groupActivities, type StoredActivity } from "./domain/grouping.js";
import { cutPage, etagOf, type ListQuery, nextPageQuery } from "./domain/page.js";
import type { Parameter } from "./domain/parameters.js";
import type { RenderContext } from "./domain/prepared-text.js";
import { effectiveStreamSettings, hiddenTypes } from "./domain/stream-settings.js";
import type { PageCache, PageExpectation, PageRead, PageRendering } from "./page-cache.js";
import type { ActivityRow, ActivityStore } from "./ports.js";

export interface StreamPage {
  query: ListQuery;
  /** The page's elements before rendering: streamEntries() or ElementJsonCache render them. */
  groups: ActivityGroup[];
  /** How the entries are rendered (base URL, display names, language). */
  context: RenderContext;
  /** X-Activity-Last-Given: set when at least one row was consumed. */
  lastGiven: number | undefined;
  /** X-Activity-First-Known: set when `since` was absent or unknown and the user has activities. */
  firstKnown: number | undefined;
  /** Query string of the next page (for `Link: <…>; rel="next"`), when there is one. */
  nextQuery: string | undefined;
  etag: string;
}

function userIdsIn(params: readonly Parameter[], into: Set<string>): void {
  for (const p of params) {
    if (p.type === "user" && p.value !== "") into.add(p.value);
    if (p.type === "collection") userIdsIn(p.value, into);
  }
}

/** Display names already read for the page: `names` holds those of `asked` that exist. */
interface NamesRead {
  asked: readonly string[];
  names: Map<string, string>;
}

/**
 * Decoded rows → grouped elements, the context to render them in, and the users they name
 * (display names read once for the page: those not already in `read`).
 */
async function groupRows(
  store: ActivityStore,
  activities: readonly StoredActivity[],
  baseUrl: string,
  group = true,
  language?: string,
  read: NamesRead = { asked: [], names: new Map() },
): Promise<{ groups: ActivityGroup[]; context: RenderContext; named: string[] }> {
  const groups = group
    ? groupActivities(activities)
    : activities.map((row) => ({ members: [row], subjectparams: row.subjectparams }));
  const uids = new Set<string>();
  for (const group of groups) {
    userIdsIn(group.subjectparams, uids);
    userIdsIn(group.members[0]!.messageparams, uids);
  }
  const named = [...uids];
  const unread = named.filter((uid) => !read.asked.includes(uid));
  const names = unread.length === 0 ? read.names : new Map([...read.names, ...(await store.displayNames(unread))]);
  return { groups, context: { baseUrl, language, displayName: (uid: string) => names.get(uid) }, named };
}

/** Rows read whole (not StoredRows, so decoded each time) → grouped, rendered entries. */
export async function renderRows(
  store: ActivityStore,
  rows: readonly ActivityRow[],
  baseUrl: string,
  group = true,
  language?: string,
): Promise<{ entries: StreamEntry[]; context: RenderContext }> {
  const { groups, context } = await groupRows(store, rows.map(decodeRow), baseUrl, group, language);
  return { entries: streamEntries(groups, context), context };
}

/** The page's elements with their segments (the web page's HTML, the XML answer). */
export function streamEntries(groups: readonly ActivityGroup[], context: RenderContext): StreamEntry[] {
  return groups.map((group) => toStreamEntry(group, context));
}

/**
 * docs/upstream/nextcloud-activity.md §3: X-Activity-First-Known is the user's newest (desc) or
 * oldest (asc) activity across every filter. A page of the whole stream from its start already
 * begins with it, so the extra statement is only needed when the page is filtered.
 */
async function firstKnownOf(
  store: ActivityStore,
  uid: string,
  sort: ListQuery["sort"],
  page: { unfiltered: boolean; fetched: readonly { activity_id: number }[] },
): Promise<number | undefined> {
  return page.unfiltered ? page.fetched[0]?.activity_id : store.firstKnown(uid, sort);
}

/** The stream-settings rule as the store applies it: the types the stored choices hide. */
const hiddenTypesOf = (stored: ReadonlyMap<string, boolean>) => hiddenTypes(effectiveStreamSettings(stored));

/**
 * One page of a user's stream. Checks in upstream's order (docs/upstream/nextcloud-activity.md
 * §1.5): filter (404), stream settings (204), `since` of another user (403); the caller then
 * answers 304 or 200. The settings, the page and the display names are read together
 * (store.streamRead), for what the reader's previous page of this filter needed (`cache`); any
 * name it did not foresee is read after.
 */
export async function listActivities(
  store: ActivityStore,
  cache: PageCache,
  uid: string,
  query: ListQuery,
  baseUrl: string,
  /** The reader's language; the stored activities stay untranslated. */
  language?: string,
): Promise<Result<StreamPage>> {
  const filter = findFilter(query.filter);
  if (!filter) return fail({ code: "unknown_filter", filter: query.filter });
  const sinceRow = query.since === undefined ? undefined : await store.findPosition(query.since);
  const since = resolveSince(query.since, sinceRow, uid, query.sort);
  if (since.kind === "foreign") {
    const settings = effectiveStreamSettings(await store.streamSettings(uid));
    if (streamDisabled(filter, settings)) return fail({ code: "stream_disabled", filter: filter.id });
    return fail({ code: "foreign_since", since: query.since ?? 0 });
  }
  const selection = filter.select(query);
  const expected = cache.expectation(uid, filter.id);
  const read = await store.streamRead({
    uid,
    selection,
    bound: since.kind === "bound" ? since.bound : undefined,
    sort: query.sort,
    fetch: query.limit + 1,
    hiddenTypesOf,
    expectedHiddenTypes: expected.hiddenTypes,
    names: expected.names,
  });
  if (streamDisabled(filter, effectiveStreamSettings(read.settings))) {
    return fail({ code: "stream_disabled", filter: filter.id });
  }
  const fetched = read.rows;
  const unfiltered = Object.keys(selection).length === 0 && read.hiddenTypes.length === 0;
  const firstKnown = since.kind === "bound" ? undefined : await firstKnownOf(store, uid, query.sort, { unfiltered, fetched });
  const cut = cutPage(fetched, query.limit);
  const page = { rows: cut.rows, baseUrl, language, names: read.names };
  const rendering =
    cache.rendering(uid, filter.id, expected, page) ??
    (await groupPage(store, cache, page, expected, (named, made) =>
      cache.remember(uid, filter.id, { hiddenTypes: read.hiddenTypes, names: named }, made),
    ));
  return ok({
    query,
    groups: rendering.groups,
    context: renderContext(baseUrl, language, rendering),
    lastGiven: cut.lastGiven,
    firstKnown,
    nextQuery: cut.hasMore && cut.lastGiven !== undefined ? nextPageQuery(query, cut.lastGiven) : undefined,
    etag: rendering.etag,
  });
}

/** Groups a page's rows (reading the names `expected` did not foresee) and tells `remember` the result. */
async function groupPage(
  store: ActivityStore,
  cache: PageCache,
  page: PageRead & { names: Map<string, string> },
  expected: PageExpectation,
  remember: (named: string[], rendering: PageRendering) => void,
): Promise<PageRendering> {
  const activities = page.rows.map((row) => cache.decode(row));
  const { groups, context, named } = await groupRows(store, activities, page.baseUrl, true, page.language, {
    asked: expected.names,
    names: page.names,
  });
  const rendering: PageRendering = {
    rows: page.rows,
    language: page.language,
    named,
    nameValues: named.map(context.displayName),
    groups,
    etag: etagOf(groups.map((group) => group.members[0]!.activity_id)),
  };
  remember(named, rendering);
  return rendering;
}

/** The context a rendering's names were read in: each name it shows, as rendered (checked current). */
function renderContext(baseUrl: string, language: string | undefined, rendering: PageRendering): RenderContext {
  return {
    baseUrl,
    language,
    displayName(uid) {
      const i = rendering.named.indexOf(uid);
      return i < 0 ? undefined : rendering.nameValues[i];
    },
  };
}
