/** The clock is injected everywhere expiry is decided, so tests fix time instead of sleeping. */
export interface Clock {
  /** Seconds since the epoch. */
  nowSeconds(): number;
}

export const systemClock: Clock = {
  nowSeconds: () => Math.floor(Date.now() / 1000),
};

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = 1_800_000_000) {}
  nowSeconds(): number {
    return this.current;
  }
  advance(seconds: number): void {
    this.current += seconds;
  }
}
