/**
 * Two builds as server processes (`node <checkout>/dist/main.js`, as deployed), loaded in turns by
 * autocannon: what bench/ab-inject.ts leaves out, the process itself (its start-up settings, its
 * garbage collector over a long run, sockets, the access log). Each build's node is fresh, seeded
 * as `npm run bench` seeds its own; the scenarios are npm run bench's (userinfo, code, refresh,
 * activity), their runs interleaved A B, B A, … and each figure B's over A's, paired per round.
 *
 *   node --import tsx bench/ab-process.ts <checkout A> <checkout B> [sqlite|postgres] [userinfo,code,…]
 *   BENCH_REPS, BENCH_DURATION, BENCH_WARMUP as for npm run bench; KEYSTREAM_BENCH_DATABASE_URL for PostgreSQL.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Contender } from "./lib/measure.js";
import { measure, pairedRatio } from "./lib/measure.js";
import { findPostgres, releasePostgres } from "./lib/postgres.js";
import { log, PIN } from "./lib/settings.js";
import { startKeystream, type Target } from "./lib/targets.js";
import { activityContender } from "./scenarios/activity.js";
import { codeContender } from "./scenarios/code.js";
import { refreshContender } from "./scenarios/refresh.js";
import { userinfoContender } from "./scenarios/userinfo.js";

const [dirA, dirB, dialect = "sqlite", only = "userinfo,code,refresh,activity"] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error("usage: ab-process.ts <checkout A> <checkout B> [sqlite|postgres] [scenarios]");
/** npm run bench's contender of each scenario, for one Keystream node and its access token. */
const SCENARIOS: Record<string, (target: Target, token: string) => Contender | Promise<Contender>> = {
  userinfo: userinfoContender,
  code: (target) => codeContender(target),
  refresh: (target) => refreshContender(target),
  activity: activityContender,
};

async function main(): Promise<void> {
  // As npm run bench: the servers on CPU 0 (settings.ts serverCommand), this load generator on CPU 1.
  if (PIN) execFileSync("taskset", ["-acp", "1", String(process.pid)], { stdio: "ignore" });
  const found = dialect === "postgres" ? findPostgres() : undefined;
  if (typeof found === "string") throw new Error(`PostgreSQL: ${found}`);
  const targets: Target[] = [];
  try {
    for (const [dir, label] of [
      [dirA!, " A"],
      [dirB!, " B"],
    ] as const) {
      const dist = path.join(path.resolve(dir), "dist");
      targets.push(await startKeystream(dialect === "postgres" ? "postgres" : "sqlite", found, {}, { dist, label }));
    }
    const accessTokens = new Map<string, string>();
    for (const t of targets) accessTokens.set(t.name, (await t.mint("access", 1))[0]!);
    for (const key of only.split(",")) {
      const contender = SCENARIOS[key];
      if (!contender) throw new Error(`unknown scenario ${key}`);
      log(`scenario: ${key}`);
      const contenders = await Promise.all(targets.map((t) => contender(t, accessTokens.get(t.name)!)));
      const [a, b] = await measure(key, contenders);
      if (!a || !b) continue;
      const ratio = pairedRatio(b, a);
      const cpu = (f: typeof a) => (f.cpuMicrosPerOk === null ? "–" : f.cpuMicrosPerOk.toFixed(0));
      const cpuRatio = a.cpuMicrosPerOk && b.cpuMicrosPerOk ? (b.cpuMicrosPerOk / a.cpuMicrosPerOk).toFixed(3) : "–";
      process.stdout.write(
        `${key} ${dialect}: A ${a.okPerSecond.toFixed(0)}/s (${cpu(a)} µs CPU), B ${b.okPerSecond.toFixed(0)}/s (${cpu(b)} µs CPU); ` +
          `B/A throughput ${ratio === null ? "–" : ratio.toFixed(3)} (paired per round), CPU per answer ${cpuRatio}\n`,
      );
    }
  } finally {
    for (const t of targets) await t.cleanup().catch(() => undefined);
    releasePostgres(found);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
