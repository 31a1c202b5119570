import { rowBytes } from "../../../activity/domain/cache-sizes.js";
import type { ActivityRow, StoredRow } from "../../../activity/ports.js";
import { BoundedCache } from "../../../collections/bounded-cache.js";

/**
 * Stored rows kept in memory, in bytes as rowBytes estimates them (≈ 1.5 KB for a row naming a
 * short file: some ten thousand rows, the first pages of some hundred users; fewer when rows carry
 * long paths, never more bytes).
 */
const ACTIVITY_ROW_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Stored activity rows by id, at most `maxBytes` of them, least recently used dropped first
 * (collections/bounded-cache.ts): the one place a StoredRow is made (activity/ports.ts says what a
 * StoredRow guarantees; activity/page-cache.ts relies on it). A row kept is handed out as the very
 * object kept, until it is evicted or replaced by a newer read of it.
 */
export class ActivityRowCache {
  private readonly rows: BoundedCache<number, StoredRow>;

  constructor(maxBytes = ACTIVITY_ROW_CACHE_BYTES) {
    this.rows = new BoundedCache(maxBytes, (_id, row) => rowBytes(row));
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

  /** The bytes held (rowBytes), at most the budget. */
  get bytes(): number {
    return this.rows.bytes;
  }
}
