import { BoundedCache } from "../collections/bounded-cache.js";
import { elementJson } from "./domain/element.js";
import { type ActivityGroup, decodeRow, type StoredActivity } from "./domain/grouping.js";
import type { RenderContext } from "./domain/prepared-text.js";
import type { StoredRow } from "./ports.js";

/**
 * The activity page's caches, per process and bounded. They hold what a page derives from its
 * stored rows: each row decoded, each reader's last page as grouped and rendered, each element's
 * wire JSON and each page's answer bytes. Every one of them decides reuse by `===` on the rows
 * (StoredRow) or on what a reused rendering holds; activity/ports.ts StoredRow states why that is
 * sound: the store hands out the same object for a row it holds cached, and nobody changes it.
 * Everything else a rendering depends on (base URL, language, display names) is compared afresh
 * on every page, so a rename, another host or another language is never answered from a cache.
 */

/** Readers (and filters) whose expectations are remembered: a few hundred bytes each. */
const PAGE_EXPECTATIONS_SIZE = 10_000;
/**
 * Renderings remembered: each holds its page's rows and, through the answer cache, its answer's
 * bytes (≈ 45 KB at 50 elements), so far fewer than the readers: the pages being polled right now.
 */
const PAGE_RENDERINGS_SIZE = 256;
/** Elements kept as JSON text (≈ 1 KB each): the first pages of some hundred users. */
const ELEMENT_JSON_CACHE_SIZE = 10_000;

/** What a reader's next page of one filter is expected to need. */
export interface PageExpectation {
  /** The types the reader's stream settings hid last time (domain/stream-settings.ts hiddenTypes). */
  hiddenTypes: readonly string[];
  /** The users the last page named (their display names are read with the page). */
  names: readonly string[];
}

/** A page as it was grouped and rendered, for the reader's next identical page. */
export interface PageRendering {
  /** The rows it was made of: the stored row objects themselves. */
  rows: readonly StoredRow[];
  baseUrl: string;
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

/** A page's answer bytes, for the envelope object and `previews` they were made with. */
interface Answer {
  envelope: object;
  previews: boolean;
  body: Buffer;
}

const NOTHING_YET: PageExpectation = { hiddenTypes: [], names: [] };

/** Bounds of the caches (tests make them small). */
interface PageCacheSizes {
  expectations: number;
  renderings: number;
  elements: number;
}

const DEFAULT_SIZES: PageCacheSizes = {
  expectations: PAGE_EXPECTATIONS_SIZE,
  renderings: PAGE_RENDERINGS_SIZE,
  elements: ELEMENT_JSON_CACHE_SIZE,
};

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
 *   StoredRows, for the same base URL and language, and every name it shows is still the one just
 *   read (a poll of an unchanged stream: no grouping, no element lookups, the same answer bytes);
 * - each element's JSON (ElementJsonCache), and each reused rendering's answer bytes, by its groups
 *   (which only a reused rendering hands out again; bounded with the renderings that hold them).
 */
export class PageCache {
  private readonly decoded = new WeakMap<StoredRow, StoredActivity>();
  private readonly expectations: BoundedCache<string, PageExpectation>;
  private readonly renderings: BoundedCache<string, PageRendering>;
  private readonly answers = new WeakMap<ActivityGroup[], Answer>();
  readonly elements: ElementJsonCache;

  constructor(sizes: PageCacheSizes = DEFAULT_SIZES) {
    this.expectations = new BoundedCache(sizes.expectations);
    this.renderings = new BoundedCache(sizes.renderings);
    this.elements = new ElementJsonCache(elementJson, sizes.elements);
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
   * read for `expected` (so `page.names` holds every name it shows, read just now), the same base
   * URL and language, unchanged names.
   */
  rendering(uid: string, filter: string, expected: PageExpectation, page: PageRead): PageRendering | undefined {
    const last = this.renderings.get(keyOf(uid, filter));
    if (last === undefined || last.named !== expected.names) return undefined;
    if (last.baseUrl !== page.baseUrl || last.language !== page.language || last.rows.length !== page.rows.length) {
      return undefined;
    }
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
  answer(groups: ActivityGroup[], envelope: object, previews: boolean): Buffer | undefined {
    const answered = this.answers.get(groups);
    return answered?.envelope === envelope && answered.previews === previews ? answered.body : undefined;
  }

  rememberAnswer(groups: ActivityGroup[], envelope: object, previews: boolean, body: Buffer): void {
    this.answers.set(groups, { envelope, previews, body });
  }
}

function keyOf(uid: string, filter: string): string {
  return `${uid}\n${filter}`;
}

interface CachedElement {
  /** UTF-8 already: the answer is assembled from these bytes without encoding the text again. */
  json: Buffer;
  /** Every display name the rendering looked up, as it found it. */
  names: Array<[uid: string, name: string | undefined]>;
}

/**
 * The wire JSON of stream elements, rendered once and reused (assembling the element and
 * serialising it are half of a page's CPU, docs/performance.md). An element is a function of its
 * group's stored rows (which never change: activity/ports.ts StoredRow), the base URL, the language
 * and the display names of the users it names. The key holds the first three; the display names
 * are read for every page anyway, and an entry is used only while each name it was rendered with is
 * still the current one, so a renamed user shows under the new name at once, on every node.
 */
export class ElementJsonCache {
  private readonly entries: BoundedCache<string, CachedElement>;

  constructor(
    /** The rendering cached: a function of the group's rows and the context only. */
    private readonly render: (group: ActivityGroup, context: RenderContext) => string = elementJson,
    capacity = ELEMENT_JSON_CACHE_SIZE,
  ) {
    this.entries = new BoundedCache(capacity);
  }

  /** render(group, context) as UTF-8, from the cache when still valid. */
  json(group: ActivityGroup, context: RenderContext): Buffer {
    let ids = "";
    for (const member of group.members) ids += `${member.activity_id},`;
    const key = `${context.language ?? ""}\n${context.baseUrl}\n${ids}`;
    const hit = this.entries.get(key);
    if (hit?.names.every(([uid, name]) => context.displayName(uid) === name)) return hit.json;
    const names: CachedElement["names"] = [];
    const recording: RenderContext = {
      ...context,
      displayName(uid) {
        const name = context.displayName(uid);
        names.push([uid, name]);
        return name;
      },
    };
    const json = Buffer.from(this.render(group, recording));
    this.entries.set(key, { json, names });
    return json;
  }
}
