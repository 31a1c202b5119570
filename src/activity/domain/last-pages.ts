import { BoundedCache } from "./bounded-cache.js";
import type { ActivityGroup } from "./grouping.js";

/** Readers (and filters) whose expectations are remembered: a few hundred bytes each. */
export const PAGE_EXPECTATIONS_SIZE = 10_000;
/**
 * Renderings remembered: each holds its page's rows and, through the service, its answer's bytes
 * (≈ 45 KB at 50 elements), so far fewer than the readers: the pages being polled right now.
 */
export const PAGE_RENDERINGS_SIZE = 256;

/** What a reader's next page of one filter is expected to need. */
export interface PageExpectation {
  /** The types the reader's stream settings hid last time (stream-settings.ts hiddenTypes). */
  hiddenTypes: readonly string[];
  /** The users the last page named (their display names are read with the page). */
  names: readonly string[];
}

/** A page as it was grouped and rendered, for the reader's next identical page. */
export interface PageRendering {
  /** The rows it was made of: the stored row objects themselves (storage/activity-store.ts row cache). */
  rows: readonly object[];
  baseUrl: string;
  language: string | undefined;
  /** The users it named: the same array as its PageExpectation's `names`. */
  named: readonly string[];
  /** Their display names as rendered (undefined: no such user), position by position. */
  nameValues: ReadonlyArray<string | undefined>;
  groups: ActivityGroup[];
  etag: string;
}

const NOTHING_YET: PageExpectation = { hiddenTypes: [], names: [] };

/**
 * Each reader's previous page of each filter (issue 17), per process and bounded:
 *
 * - what it needed, so that the next page reads it together with its rows (on PostgreSQL the
 *   settings, the page and the names are one round trip instead of three). An expectation only
 *   chooses what is read up front, never what is served: the settings and names are read afresh
 *   for every page, and a wrong guess costs a statement more (storage/activity-store.ts streamRead,
 *   list-activities.ts);
 * - how it was grouped and rendered, reused when the next page is made of the very same stored
 *   rows, for the same base URL and language, and every name it shows is still the one just read
 *   (a poll of an unchanged stream: no grouping, no element lookups, the same answer bytes).
 */
export class LastPages {
  private readonly expectations = new BoundedCache<string, PageExpectation>(PAGE_EXPECTATIONS_SIZE);
  private readonly renderings = new BoundedCache<string, PageRendering>(PAGE_RENDERINGS_SIZE);

  expectation(uid: string, filter: string): PageExpectation {
    return this.expectations.get(keyOf(uid, filter)) ?? NOTHING_YET;
  }

  /**
   * The previous rendering, when this page is the same: the same row objects in the same order,
   * read for `expected` (so `names` holds every name it shows, read just now), unchanged names.
   */
  rendering(
    uid: string,
    filter: string,
    expected: PageExpectation,
    page: { rows: readonly object[]; baseUrl: string; language: string | undefined; names: ReadonlyMap<string, string> },
  ): PageRendering | undefined {
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
}

function keyOf(uid: string, filter: string): string {
  return `${uid}\n${filter}`;
}
