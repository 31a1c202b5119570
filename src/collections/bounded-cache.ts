/**
 * A map that keeps at most `capacity` entries, dropping those least recently used first: the
 * activity page's caches (activity/page-cache.ts, storage/activity-row-cache.ts) stay bounded in
 * memory whatever the number of users and pages. Two generations instead of an exact LRU order: a hit in the current generation is one
 * lookup (moving an entry to the end of one Map on every hit costs 4 % of a page); when the current
 * generation is full it becomes the previous one and the previous one is dropped, so an entry
 * used since the last turn survives it.
 */
export class BoundedCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private readonly generationSize: number;

  constructor(readonly capacity: number) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    this.current.set(key, value);
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
  }

  /** Entries held (at most `capacity`; one key may be counted in both generations). */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}
