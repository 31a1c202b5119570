/**
 * What `npm run chaos` runs, from the environment:
 *   CHAOS_SCENARIOS  comma-separated subset of kill9, postgres-outage, abusive-clients, sigterm (default: all)
 *   CHAOS_DATABASES  sqlite, postgres or both (default: both; postgres needs an admin URL, below)
 *   CHAOS_DURATION   seconds of load per scenario phase (default 90); every count and wait scales from it
 *   CHAOS_DATABASE_URL, else KEYSTREAM_TEST_DATABASE_URL: a PostgreSQL admin URL; each run creates
 *                    a fresh database there and drops it afterwards
 */
export const SCENARIOS = ["kill9", "postgres-outage", "abusive-clients", "sigterm"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
export type DatabaseKind = "sqlite" | "postgres";

export interface ChaosOptions {
  scenarios: ScenarioName[];
  databases: DatabaseKind[];
  /** Seconds of load in a scenario's main phase. */
  durationSeconds: number;
  /** PostgreSQL server to create the fresh databases on (absent: PostgreSQL runs are skipped). */
  postgresAdminUrl: string | undefined;
}

export const DEFAULT_DURATION_SECONDS = 90;

export function readOptions(env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  const list = (value: string | undefined) =>
    (value ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const wanted = list(env.CHAOS_SCENARIOS);
  const unknown = wanted.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`CHAOS_SCENARIOS: unknown ${unknown.join(", ")} (known: ${SCENARIOS.join(", ")})`);
  const databases = list(env.CHAOS_DATABASES);
  const badDatabase = databases.filter((d) => d !== "sqlite" && d !== "postgres");
  if (badDatabase.length > 0) throw new Error(`CHAOS_DATABASES: unknown ${badDatabase.join(", ")} (sqlite, postgres)`);
  const duration =
    env.CHAOS_DURATION === undefined || env.CHAOS_DURATION === "" ? DEFAULT_DURATION_SECONDS : Number(env.CHAOS_DURATION);
  if (!Number.isFinite(duration) || duration < 5 || duration > 3600) throw new Error("CHAOS_DURATION: seconds from 5 to 3600");
  return {
    scenarios: wanted.length > 0 ? (wanted as ScenarioName[]) : [...SCENARIOS],
    databases: databases.length > 0 ? (databases as DatabaseKind[]) : ["sqlite", "postgres"],
    durationSeconds: duration,
    postgresAdminUrl: env.CHAOS_DATABASE_URL || env.KEYSTREAM_TEST_DATABASE_URL || undefined,
  };
}
