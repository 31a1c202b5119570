import { setTimeout as delay } from "node:timers/promises";

/**
 * Polls `check` every 20 ms until it returns true (at most `limitMs`, then fails with `what`): how a
 * test waits for the state it needs (a log line, a row, a stream that flows) instead of sleeping
 * for a time that a loaded machine may not honour.
 */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await delay(20);
  }
}
