/**
 * What a scenario found: figures (printed as measured) and invariants (each passes or breaks the
 * run). A scenario never throws for a broken invariant: it records it and goes on measuring, so
 * one run shows every figure.
 */
export class Report {
  readonly figures: Array<[string, string]> = [];
  readonly checks: Array<{ invariant: string; held: boolean; detail: string }> = [];

  constructor(readonly title: string) {}

  figure(name: string, value: number | string, unit = ""): void {
    const text =
      typeof value === "number" ? `${Number.isInteger(value) ? value : value.toFixed(2)}${unit ? ` ${unit}` : ""}` : value;
    this.figures.push([name, text]);
    log(`  ${name}: ${text}`);
  }

  check(invariant: string, held: boolean, detail = ""): void {
    this.checks.push({ invariant, held, detail });
    log(`  ${held ? "ok  " : "FAIL"} ${invariant}${detail ? ` (${detail})` : ""}`);
  }

  /** A step that could not run (a missing tool, a skipped database): printed, not a failure. */
  note(text: string): void {
    this.figures.push(["note", text]);
    log(`  note: ${text}`);
  }

  get failed(): boolean {
    return this.checks.some((c) => !c.held);
  }
}

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
