import { BoundedCache, OBJECT_BYTES, stringBytes } from "../collections/bounded-cache.js";
import { activityBytes, rowBytes } from "./domain/cache-sizes.js";
import { elementJson } from "./domain/element.js";
import { type ActivityGroup, decodeRow, type StoredActivity } from "./domain/grouping.js";
import type { RenderContext } from "./domain/prepared-text.js";
import type { StoredRow } from "./ports.js";
import { BASE_PLACEHOLDER, type RelativeJson, relativeJson } from "./relative-json.js";

/**
 * The activity page's caches, per process and bounded in bytes. They hold what a page derives from
 * its stored rows: each row decoded, each reader's last page as grouped and rendered, each element's
 * wire JSON and each page's answer bytes. Every one of them decides reuse by `===` on the rows
 * (StoredRow) or on what a reused rendering holds; activity/ports.ts StoredRow states why that is
 * sound: the store hands out the same object for a row it holds cached, and nobody changes it.
 * Everything else a rendering depends on (language, display names) is compared afresh on every
 * page, so a rename or another language is never answered from a cache. The base URL, which comes
 * from the request (its `Host`, unless overwrite.cli.url is set), is in no key: the JSON is cached
 * without it and it is spliced in when answering (relative-json.ts), so any number of hosts cost
 * no more cache memory than one.
 */

/**
 * Budgets, in bytes as collections/bounded-cache.ts estimates them (docs/security.md "Activity page
 * caches"). Readers' expectations are a few hundred bytes each; a rendering holds its page's rows
 * (≈ 75 KB at 50 short elements), an answer its bytes and its groups (≈ 100 KB), an element its JSON
 * (≈ 1 KB). Long texts (file paths) only mean fewer entries.
 */
const PAGE_EXPECTATIONS_BYTES = 4 * 1024 * 1024;
const PAGE_RENDERINGS_BYTES = 16 * 1024 * 1024;
const PAGE_ANSWERS_BYTES = 16 * 1024 * 1024;
const ELEMENT_JSON_CACHE_BYTES = 16 * 1024 * 1024;

/** What a reader's next page of one filter is expected to need. */
export interface PageExpectation {
  /** The types the reader's stream settings hid last time (domain/stream-settings.ts hiddenTypes). */
  hiddenTypes: readonly string[];
  /** The users the last page named (their display names are read with the page). */
  names: readonly string[];
}

/** A page as it was grouped and rendered, for the reader's next identical page (whatever its base URL). */
export interface PageRendering {
  /** The rows it was made of: the stored row objects themselves. */
  rows: readonly StoredRow[];
  language: string | undefined;
  /** The users it named: the same array as its PageExpectation's `names`. */
  named: readonly string[];
  /** Their display names as rendered (undefined: no such user), position by position. */
  nameValues: ReadonlyArray<string | undefined>;
  groups: ActivityGroup[];
  etag: string;
}

/** A page as just read: its rows, the context it is asked in, and the display names read with it. */
export interface PageRead {
  rows: readonly StoredRow[];
  baseUrl: string;
  language: string | undefined;
  names: ReadonlyMap<string, string>;
}

/**
 * A page's answer for the envelope object and `previews` it was made with: without its base URL,
 * and as last answered, for one base URL. Another base URL replaces the second (a process answers
 * for one host nearly always, and then reuses the very bytes); it never adds an answer.
 */
export interface Answer {
  envelope: object;
  previews: boolean;
  body: RelativeJson;
  /** The base URL `bytes` was answered with. */
  baseUrl: string;
  bytes: Buffer;
}

const NOTHING_YET: PageExpectation = { hiddenTypes: [], names: [] };

/** Budgets of the caches, in bytes (tests make them small). */
interface PageCacheBudgets {
  expectations: number;
  renderings: number;
  answers: number;
  elements: number;
}

const DEFAULT_BUDGETS: PageCacheBudgets = {
  expectations: PAGE_EXPECTATIONS_BYTES,
  renderings: PAGE_RENDERINGS_BYTES,
  answers: PAGE_ANSWERS_BYTES,
  elements: ELEMENT_JSON_CACHE_BYTES,
};

function stringsBytes(texts: readonly (string | undefined)[]): number {
  let bytes = OBJECT_BYTES;
  for (const text of texts) bytes += text === undefined ? 8 : stringBytes(text);
  return bytes;
}

const expectationBytes = (key: string, expectation: PageExpectation) =>
  stringBytes(key) + OBJECT_BYTES + stringsBytes(expectation.hiddenTypes) + stringsBytes(expectation.names);

/** A rendering's rows (with their decoded forms), its groups and the names it shows. */
function renderingBytes(key: string, rendering: PageRendering): number {
  let bytes = stringBytes(key) + 2 * OBJECT_BYTES + stringsBytes(rendering.named) + stringsBytes(rendering.nameValues);
  for (const row of rendering.rows) bytes += rowBytes(row);
  for (const group of rendering.groups) bytes += OBJECT_BYTES + 2 * OBJECT_BYTES * group.members.length;
  return bytes;
}

/** An answer's bytes (both forms), and the groups its key holds (their activities decoded). */
function answerBytes(groups: ActivityGroup[], answer: Answer): number {
  let bytes = 3 * OBJECT_BYTES + answer.body.bytes.length + answer.body.marks.byteLength;
  bytes += stringBytes(answer.baseUrl) + answer.bytes.length;
  for (const group of groups) {
    bytes += OBJECT_BYTES;
    for (const member of group.members) bytes += activityBytes(member);
  }
  return bytes;
}

/**
 * The page's caches of one ActivityService:
 *
 * - decoded rows by row object (a StoredRow decodes to the same value every time; nothing mutates a
 *   StoredActivity, grouping copies what it changes);
 * - each reader's previous page of each filter: what it needed, so that the next page reads it
 *   together with its rows (on PostgreSQL the settings, the page and the names are one round trip
 *   instead of three). An expectation only chooses what is read up front, never what is served:
 *   the settings and names are read afresh for every page, and a wrong guess costs a statement
 *   more (ActivityStore.streamRead);
 * - how that page was grouped and rendered, reused when the next page is made of the very same
 *   StoredRows, in the same language, and every name it shows is still the one just read (a poll of
 *   an unchanged stream: no grouping, no element lookups, the same answer bytes);
 * - each element's JSON (ElementJsonCache), and each reused rendering's answer, by its groups
 *   (which only a reused rendering hands out again), both without the base URL; an answer also as
 *   last answered, for the one base URL it was answered with (Answer).
 */
export class PageCache {
  private readonly decoded = new WeakMap<StoredRow, StoredActivity>();
  private readonly expectations: BoundedCache<string, PageExpectation>;
  private readonly renderings: BoundedCache<string, PageRendering>;
  private readonly answers: BoundedCache<ActivityGroup[], Answer>;
  readonly elements: ElementJsonCache;

  constructor(budgets: PageCacheBudgets = DEFAULT_BUDGETS) {
    this.expectations = new BoundedCache(budgets.expectations, expectationBytes);
    this.renderings = new BoundedCache(budgets.renderings, renderingBytes);
    this.answers = new BoundedCache(budgets.answers, answerBytes);
    this.elements = new ElementJsonCache(elementJson, budgets.elements);
  }

  /** The bytes each cache holds (each at most its budget). */
  get bytes(): { expectations: number; renderings: number; answers: number; elements: number } {
    return {
      expectations: this.expectations.bytes,
      renderings: this.renderings.bytes,
      answers: this.answers.bytes,
      elements: this.elements.bytes,
    };
  }

  /** The row decoded: once per row object. */
  decode(row: StoredRow): StoredActivity {
    let activity = this.decoded.get(row);
    if (activity === undefined) {
      activity = decodeRow(row);
      this.decoded.set(row, activity);
    }
    return activity;
  }

  expectation(uid: string, filter: string): PageExpectation {
    return this.expectations.get(keyOf(uid, filter)) ?? NOTHING_YET;
  }

  /**
   * The previous rendering, when this page is the same: the same row objects in the same order,
   * read for `expected` (so `page.names` holds every name it shows, read just now), the same
   * language, unchanged names. The base URL may differ: it is in nothing cached.
   */
  rendering(uid: string, filter: string, expected: PageExpectation, page: PageRead): PageRendering | undefined {
    const last = this.renderings.get(keyOf(uid, filter));
    if (last === undefined || last.named !== expected.names) return undefined;
    if (last.language !== page.language || last.rows.length !== page.rows.length) return undefined;
    for (let i = 0; i < last.rows.length; i++) if (last.rows[i] !== page.rows[i]) return undefined;
    for (let i = 0; i < last.named.length; i++) if (page.names.get(last.named[i]!) !== last.nameValues[i]) return undefined;
    return last;
  }

  remember(uid: string, filter: string, expectation: PageExpectation, rendering: PageRendering): void {
    const key = keyOf(uid, filter);
    this.expectations.set(key, expectation);
    this.renderings.set(key, rendering);
  }

  /** The answer made for these groups in `envelope`, with or without previews; undefined when none. */
  answer(groups: ActivityGroup[], envelope: object, previews: boolean): Answer | undefined {
    const answered = this.answers.get(groups);
    return answered?.envelope === envelope && answered.previews === previews ? answered : undefined;
  }

  rememberAnswer(groups: ActivityGroup[], answer: Answer): void {
    this.answers.set(groups, answer);
  }
}

function keyOf(uid: string, filter: string): string {
  return `${uid}\n${filter}`;
}

interface CachedElement {
  /** UTF-8 already, without the base URL: the answer is assembled from these bytes without encoding the text again. */
  json: RelativeJson;
  /** Every display name the rendering looked up, as it found it. */
  names: Array<[uid: string, name: string | undefined]>;
}

function elementBytes(key: string, element: CachedElement): number {
  let bytes = stringBytes(key) + 2 * OBJECT_BYTES + element.json.bytes.length + element.json.marks.byteLength;
  for (const [uid, name] of element.names)
    bytes += OBJECT_BYTES + stringBytes(uid) + (name === undefined ? 8 : stringBytes(name));
  return bytes;
}

/**
 * The wire JSON of stream elements, rendered once and reused (assembling the element and
 * serialising it are half of a page's CPU, docs/performance.md). An element is a function of its
 * group's stored rows (which never change: activity/ports.ts StoredRow), the base URL, the language
 * and the display names of the users it names. It is rendered without the base URL (relative-json.ts,
 * spliced in by whoever answers), so the key holds the language and the rows; the display names
 * are read for every page anyway, and an entry is used only while each name it was rendered with is
 * still the current one, so a renamed user shows under the new name at once, on every node.
 */
export class ElementJsonCache {
  private readonly entries: BoundedCache<string, CachedElement>;

  constructor(
    /** The rendering cached: a function of the group's rows and the context only. */
    private readonly render: (group: ActivityGroup, context: RenderContext) => string = elementJson,
    maxBytes = ELEMENT_JSON_CACHE_BYTES,
  ) {
    this.entries = new BoundedCache(maxBytes, elementBytes);
  }

  /** render(group, context) as UTF-8 without its base URL, from the cache when still valid. */
  json(group: ActivityGroup, context: RenderContext): RelativeJson {
    let ids = "";
    for (const member of group.members) ids += `${member.activity_id},`;
    const key = `${context.language ?? ""}\n${ids}`;
    const hit = this.entries.get(key);
    if (hit?.names.every(([uid, name]) => context.displayName(uid) === name)) return hit.json;
    const names: CachedElement["names"] = [];
    const recording: RenderContext = {
      baseUrl: BASE_PLACEHOLDER,
      language: context.language,
      displayName(uid) {
        const name = context.displayName(uid);
        names.push([uid, name]);
        return name;
      },
    };
    const json = relativeJson(this.render(group, recording));
    this.entries.set(key, { json, names });
    return json;
  }

  /** The bytes held, at most the budget. */
  get bytes(): number {
    return this.entries.bytes;
  }
}
