/** The clock is injected everywhere expiry is decided, so tests fix time instead of sleeping. */
export interface Clock {
  /** Seconds since the epoch. */
  nowSeconds(): number;
}

export const systemClock: Clock = {
  nowSeconds: () => Math.floor(Date.now() / 1000),
};

/**
 * A clock tests move by hand. It starts in 2096 by default: cookies and sessions it dates must
 * lie in the future of the real clock too (a browser drops a cookie whose expiry has passed),
 * whenever the tests run.
 */
export class ManualClock implements Clock {
  constructor(private current = 4_000_000_000) {}
  nowSeconds(): number {
    return this.current;
  }
  advance(seconds: number): void {
    this.current += seconds;
  }
}
