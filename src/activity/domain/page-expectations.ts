import { BoundedCache } from "./bounded-cache.js";

/** Readers (and filters) remembered: a few hundred bytes each. */
export const PAGE_EXPECTATIONS_SIZE = 10_000;

/** What a reader's next page of one filter is expected to need. */
export interface PageExpectation {
  /** The types the reader's stream settings hid last time (stream-settings.ts hiddenTypes). */
  hiddenTypes: readonly string[];
  /** The users the last page named (their display names are read with the page). */
  names: readonly string[];
}

const NOTHING_YET: PageExpectation = { hiddenTypes: [], names: [] };

/**
 * What each reader's previous page of a filter needed, so that the next one can read it together
 * with its rows (issue 17: on PostgreSQL the settings, the page and the names are one round trip
 * instead of three). An expectation only chooses what is read up front, never what is served:
 * the settings and names are read afresh on every page, a wrong guess costs a statement more
 * (storage/activity-store.ts streamRead, list-activities.ts). Per process, bounded.
 */
export class PageExpectations {
  private readonly entries = new BoundedCache<string, PageExpectation>(PAGE_EXPECTATIONS_SIZE);

  of(uid: string, filter: string): PageExpectation {
    return this.entries.get(`${uid}\n${filter}`) ?? NOTHING_YET;
  }

  remember(uid: string, filter: string, expectation: PageExpectation): void {
    this.entries.set(`${uid}\n${filter}`, expectation);
  }
}
