import type { ActivityRow, StoredRow } from "../activity/ports.js";

/** Stored rows kept in memory by id (≈ 1 KB each): the first pages of some hundred users. */
const ACTIVITY_ROW_CACHE_SIZE = 10_000;

/**
 * Stored activity rows by id, at most `capacity` of them: the one place a StoredRow is made
 * (activity/ports.ts says what a StoredRow guarantees; activity/page-cache.ts relies on it). A row
 * kept is handed out as the very object kept, until it is evicted or replaced by a newer read of it.
 *
 * Eviction drops the rows least recently used first, by two generations instead of an exact LRU
 * order: a hit in the current generation is one lookup (moving an entry to the end of one Map on
 * every hit costs 4 % of a page); when the current generation is full it becomes the previous one
 * and the previous one is dropped, so a row used since the last turn survives it. (The same scheme
 * as activity/bounded-cache.ts, which the domain side uses; storage keeps its own.)
 */
export class ActivityRowCache {
  private current = new Map<number, StoredRow>();
  private previous = new Map<number, StoredRow>();
  private readonly generationSize: number;

  constructor(readonly capacity = ACTIVITY_ROW_CACHE_SIZE) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  /** The row kept for this id, the same object each time; undefined when none is kept. */
  get(id: number): StoredRow | undefined {
    const row = this.current.get(id);
    if (row !== undefined) return row;
    const older = this.previous.get(id);
    if (older !== undefined) this.set(id, older);
    return older;
  }

  /**
   * Keeps rows just read from the database (replacing any kept for the same ids) and returns them,
   * the same array, as StoredRows. The caller hands them out and never changes them.
   */
  keep(rows: ActivityRow[]): StoredRow[] {
    const stored = rows as StoredRow[];
    for (const row of stored) this.set(row.activity_id, row);
    return stored;
  }

  /** Rows held (at most `capacity`; one id may be counted in both generations). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private set(id: number, row: StoredRow): void {
    this.current.set(id, row);
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
  }
}
