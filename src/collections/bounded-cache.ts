/**
 * A map that holds at most `maxBytes` of entries, as its `sizeOf` estimates them, dropping those
 * least recently used first: the activity page's caches (activity/page-cache.ts,
 * storage/stores/activity/activity-row-cache.ts) stay bounded in memory whatever the number of users and pages and
 * however large their entries. Two generations instead of an exact LRU order: a hit in the current
 * generation is one lookup (moving an entry to the end of one Map on every hit costs 4 % of a page);
 * when the current generation would pass half the budget it becomes the previous one and the
 * previous one is dropped, so an entry used since the last turn survives it. Each generation holds
 * at most half the budget, so the two together never pass it; an entry larger than half is not kept.
 */
export class BoundedCache<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();
  private currentBytes = 0;
  private previousBytes = 0;
  private readonly generationBytes: number;

  constructor(
    readonly maxBytes: number,
    /** The bytes an entry holds (an estimate: see stringBytes); the same for the same entry. */
    private readonly sizeOf: (key: K, value: V) => number,
  ) {
    this.generationBytes = Math.floor(maxBytes / 2);
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    const size = this.sizeOf(key, value);
    const replaced = this.current.get(key);
    if (replaced !== undefined) {
      this.current.delete(key);
      this.currentBytes -= this.sizeOf(key, replaced);
    }
    if (size > this.generationBytes) {
      // Too large to keep: nor is an older value for the key handed out instead.
      const older = this.previous.get(key);
      if (older !== undefined) {
        this.previous.delete(key);
        this.previousBytes -= this.sizeOf(key, older);
      }
      return;
    }
    if (this.currentBytes + size > this.generationBytes) {
      this.previous = this.current;
      this.previousBytes = this.currentBytes;
      this.current = new Map();
      this.currentBytes = 0;
    }
    this.current.set(key, value);
    this.currentBytes += size;
  }

  /** Entries held (one key may be counted in both generations). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** The bytes held, as sizeOf estimates them: at most maxBytes (an entry in both generations counts twice). */
  get bytes(): number {
    return this.currentBytes + this.previousBytes;
  }
}

/**
 * What a string costs at most: V8 stores it in one or two bytes a character, plus its header. Cache
 * sizes count text this way, so a bound holds whatever the characters.
 */
export function stringBytes(text: string): number {
  return STRING_HEADER_BYTES + 2 * text.length;
}

const STRING_HEADER_BYTES = 16;

/** What an object, an array or a map entry costs besides the values it holds (a generous estimate). */
export const OBJECT_BYTES = 64;
