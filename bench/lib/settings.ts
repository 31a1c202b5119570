/**
 * The bench's settings (environment variables, documented in bench/run.ts), paths and the
 * benchmark client shared by Keystream and the peer.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const RESULTS = path.join(ROOT, "bench", "results");
export const DURATION = Number(process.env.BENCH_DURATION ?? 3);
export const REPS = Number(process.env.BENCH_REPS ?? 5);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
export const PAGING_ROWS = (process.env.BENCH_PAGING_ROWS ?? "10000,1000000").split(",").map(Number);
export const PAGING_ITERATIONS = Number(process.env.BENCH_PAGING_ITERATIONS ?? 300);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : undefined;
export const PROFILE = process.env.BENCH_PROFILE === "1";
/** Keystream's LOG_LEVEL: info (one access-log line per request) as in production; warn measures without it. */
export const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "info";
export const STAMP = new Date().toISOString().replace(/[:.]/g, "-");
export const PROFILE_DIR = path.join(RESULTS, `profiles-${STAMP}`);

/** The peer's client (bench/servers/oidc-provider-peer.ts); Keystream registers the same one. */
export const CLIENT = {
  id: "bench-client-0123456789abcdef0123456789",
  secret: "bench-secret-0123456789abcdef0123456789abcdef",
  redirectUri: "http://127.0.0.1:9/cb",
};
export const BASIC = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`;
export const BENCH_USER = "bench-user";
/** Activities seeded for the bench user of each Keystream node (the activity page scenario reads them). */
export const ACTIVITY_ROWS = 2_000;

export const log = (message: string) => process.stderr.write(`${message}\n`);
export const wants = (scenario: string) => !ONLY || ONLY.has(scenario);

// --- CPU placement ---------------------------------------------------------------------------

export const PIN =
  process.env.BENCH_PIN !== "0" && os.cpus().length >= 2 && spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;

/** Servers on CPU 0; this process (the load generator) on CPU 1. PostgreSQL's backends float. */
export function serverCommand(args: string[]): [string, string[]] {
  return PIN ? ["taskset", ["-c", "0", process.execPath, ...args]] : [process.execPath, args];
}
