/** The PostgreSQL server the bench uses: given, or the private cluster of scripts/dev-postgres.sh. */
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { ROOT } from "./settings.js";

export interface Postgres {
  adminUrl: string;
  startedHere: boolean;
}

/** The server, or why there is none (a string). */
export function findPostgres(): Postgres | string {
  if (process.env.BENCH_PG === "0") return "BENCH_PG=0";
  const given = process.env.KEYSTREAM_BENCH_DATABASE_URL;
  if (given) return { adminUrl: given, startedHere: false };
  const script = path.join(ROOT, "scripts", "dev-postgres.sh");
  const url = execFileSync(script, ["url"], { encoding: "utf8" }).trim();
  if (spawnSync(script, ["status"], { stdio: "ignore" }).status === 0) return { adminUrl: url, startedHere: false };
  const started = spawnSync(script, ["start"], { encoding: "utf8" });
  if (started.status !== 0) return `scripts/dev-postgres.sh start failed: ${(started.stderr || started.stdout).trim()}`;
  return { adminUrl: url, startedHere: true };
}

/** Stops the cluster if this run started it. */
export function releasePostgres(postgres: Postgres | undefined): void {
  if (postgres?.startedHere) spawnSync(path.join(ROOT, "scripts", "dev-postgres.sh"), ["stop"], { stdio: "ignore" });
}

export async function adminQuery(adminUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
