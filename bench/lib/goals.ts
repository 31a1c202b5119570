/**
 * Issue 17's targets, per scenario and database, as the table's target column shows them with ✓ or
 * ✗ (the issue's "Targets": ratios paired within one run; the activity page in server CPU per answer).
 */
export interface Goal {
  text: string;
  met(figure: { ratio: number | null; cpu: number | null }): boolean;
}

const atLeast = (ratio: number, of: string): Goal => ({
  text: `≥ ${ratio.toFixed(1)}× ${of}`,
  met: (f) => f.ratio !== null && f.ratio >= ratio,
});
const cpuAtMost = (micros: number): Goal => ({
  text: `≤ ${micros} µs CPU`,
  met: (f) => f.cpu !== null && f.cpu <= micros,
});
const byDatabase =
  (sqlite: Goal, postgres: Goal) =>
  (target: string): Goal | undefined =>
    target === "Keystream SQLite" ? sqlite : target === "Keystream PostgreSQL" ? postgres : undefined;

export const GOALS = {
  userinfo: byDatabase(atLeast(0.4, "ceiling"), atLeast(0.3, "ceiling")),
  code: byDatabase(atLeast(1.5, "oidc-provider"), atLeast(1.0, "oidc-provider")),
  refresh: byDatabase(atLeast(1.5, "oidc-provider"), atLeast(1.0, "oidc-provider")),
  activity: byDatabase(cpuAtMost(250), cpuAtMost(350)),
} as const;

/** The target column's text: the goal and whether this figure meets it. */
export function goalText(goal: Goal | undefined, figure: { ratio: number | null; cpu: number | null }): string | undefined {
  return goal && `${goal.text} ${goal.met(figure) ? "✓" : "✗"}`;
}
