import type { ActivityRow, StoredRow } from "../activity/ports.js";
import { BoundedCache } from "../collections/bounded-cache.js";

/** Stored rows kept in memory by id (≈ 1 KB each): the first pages of some hundred users. */
const ACTIVITY_ROW_CACHE_SIZE = 10_000;

/**
 * Stored activity rows by id, at most `capacity` of them, least recently used dropped first
 * (collections/bounded-cache.ts): the one place a StoredRow is made (activity/ports.ts says what a
 * StoredRow guarantees; activity/page-cache.ts relies on it). A row kept is handed out as the very
 * object kept, until it is evicted or replaced by a newer read of it.
 */
export class ActivityRowCache {
  private readonly rows: BoundedCache<number, StoredRow>;

  constructor(readonly capacity = ACTIVITY_ROW_CACHE_SIZE) {
    this.rows = new BoundedCache(capacity);
  }

  /** The row kept for this id, the same object each time; undefined when none is kept. */
  get(id: number): StoredRow | undefined {
    return this.rows.get(id);
  }

  /**
   * Keeps rows just read from the database (replacing any kept for the same ids) and returns them,
   * the same array, as StoredRows. The caller hands them out and never changes them.
   */
  keep(rows: ActivityRow[]): StoredRow[] {
    const stored = rows as StoredRow[];
    for (const row of stored) this.rows.set(row.activity_id, row);
    return stored;
  }

  /** Rows held (at most `capacity`; one id may be counted in both generations). */
  get size(): number {
    return this.rows.size;
  }
}
