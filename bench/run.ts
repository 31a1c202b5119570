/**
 * `npm run bench` (issues 6, 17): Keystream against the bare node:http ceiling and panva's
 * oidc-provider, on SQLite and on PostgreSQL, with autocannon on loopback. Not part of `npm test`.
 * This file is the runner; each scenario is a module of bench/scenarios/ and the harness is lib/.
 *
 * Every figure is the median of BENCH_REPS runs of BENCH_DURATION seconds (after a warm-up), and
 * the runs of one scenario are interleaved across servers in rounds (A B C, A B C, …) so that a
 * noisy neighbour hits all of them alike; each figure's ratio to its reference is the median over
 * rounds of the ratio within a round. Prints a table and writes JSON to bench/results/.
 *
 *   npm run bench                          # everything (builds dist/ first)
 *   BENCH_ONLY=userinfo,code npm run bench  # some scenarios: footprint, userinfo, code, refresh, activity, paging,
 *                                          # push-sockets, push-latency (scenarios/push.ts: PUSH_* settings there)
 *   BENCH_PROFILE=1 npm run bench          # Keystream nodes run with --cpu-prof; top functions printed
 *   BENCH_PG=0 npm run bench               # skip PostgreSQL
 *
 * Environment: BENCH_DURATION (3 s), BENCH_REPS (5), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (16),
 * BENCH_PAGING_ROWS (10000,1000000), BENCH_PIN (1: servers on CPU 0, load generator on CPU 1),
 * BENCH_LOG_LEVEL (info: Keystream's LOG_LEVEL), BENCH_FOOTPRINT_IDLE (5 s), BENCH_FOOTPRINT_REPS (3),
 * BENCH_FOOTPRINT_BASELINE (another checkout whose fresh Keystream nodes are measured beside, scenarios/footprint.ts),
 * KEYSTREAM_BENCH_DATABASE_URL (a PostgreSQL server URL whose user may create databases; default:
 * the private cluster of scripts/dev-postgres.sh, started here if it is not running and stopped
 * again at the end).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { goalText } from "./lib/goals.js";
import { type Figure, measure, pairedRatio } from "./lib/measure.js";
import { findPostgres, releasePostgres } from "./lib/postgres.js";
import { summarizeProfile } from "./lib/profile.js";
import { type PushFigure, pushTable } from "./lib/push-report.js";
import { type Line, table } from "./lib/report.js";
import type { BenchContext, ThroughputScenario } from "./lib/scenario.js";
import { CONNECTIONS, DURATION, log, PIN, PROFILE, REPS, RESULTS, ROOT, STAMP, WARMUP, wants } from "./lib/settings.js";
import { startBare, startKeystream, startPeer, type Target } from "./lib/targets.js";
import { activityScenario } from "./scenarios/activity.js";
import { codeScenario } from "./scenarios/code.js";
import { type FootprintFigure, footprintTable, runFootprint } from "./scenarios/footprint.js";
import { type PagingRun, pagingLines, runPaging } from "./scenarios/paging.js";
import { runPush } from "./scenarios/push.js";
import { refreshScenario } from "./scenarios/refresh.js";
import { userinfoScenario } from "./scenarios/userinfo.js";

/** The throughput scenarios, in the order they run. */
const SCENARIOS: ThroughputScenario[] = [userinfoScenario, codeScenario, refreshScenario, activityScenario];

/** The table's lines of the throughput scenarios: each figure over its reference, paired by round. */
function throughputLines(figures: Record<string, Figure[]>): Line[] {
  const lines: Line[] = [];
  for (const scenario of SCENARIOS) {
    const list = figures[scenario.key];
    if (!list) continue;
    const reference = list.find((f) => f.target === scenario.reference);
    for (const f of list) {
      const isReference = reference?.target === f.target;
      const ratio = isReference ? null : pairedRatio(f, reference);
      lines.push({
        scenario: scenario.label,
        target: f.target,
        value: f.okPerSecond,
        unit: "/s",
        cpu: f.cpuMicrosPerOk,
        reference: isReference ? "(reference)" : (reference?.target ?? "–"),
        ratio,
        goal: goalText(scenario.goal?.(f.target), { ratio, cpu: f.cpuMicrosPerOk }),
      });
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const started = performance.now();
  if (!fs.existsSync(path.join(ROOT, "dist", "main.js"))) throw new Error("dist/main.js is missing: npm run build");
  if (PIN) execFileSync("taskset", ["-acp", "1", String(process.pid)], { stdio: "ignore" });
  log(
    `bench: ${REPS} × ${DURATION} s per figure after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ` +
      `${PIN ? "servers pinned to CPU 0, load generator to CPU 1" : "no CPU pinning"}, node ${process.version}`,
  );

  const found = findPostgres();
  const postgres = typeof found === "string" ? undefined : found;
  const skippedPostgres = typeof found === "string" ? found : undefined;
  if (skippedPostgres) log(`bench: PostgreSQL skipped: ${skippedPostgres}`);

  const stops: Array<() => Promise<void>> = [];
  const figures: Record<string, Figure[]> = {};
  let paging: PagingRun[] = [];
  let footprint: FootprintFigure[] = [];
  let push: PushFigure[] = [];
  const profiles: Record<string, string> = {};
  try {
    // First, while no other server runs: a start-up is measured on a quiet machine.
    if (wants("footprint")) {
      log("scenario: footprint (fresh start: time to ready, idle RSS)");
      footprint = await runFootprint(postgres);
    }
    // The throughput scenarios share one set of servers, started only when one of them runs.
    if (SCENARIOS.some((scenario) => wants(scenario.key))) {
      const bare = await startBare("bare-node.ts");
      stops.push(() => bare.stop());
      const fastify = await startBare("bare-fastify.ts");
      stops.push(() => fastify.stop());
      const peer = await startPeer();
      stops.push(() => peer.cleanup());
      const keystreams: Target[] = [];
      const sqlite = await startKeystream("sqlite", undefined);
      keystreams.push(sqlite);
      stops.push(() => sqlite.cleanup());
      if (postgres) {
        const onPg = await startKeystream("postgres", postgres);
        keystreams.push(onPg);
        stops.push(() => onPg.cleanup());
      }
      const accessTokens = new Map<string, string>();
      for (const t of [peer, ...keystreams]) accessTokens.set(t.name, (await t.mint("access", 1))[0]!);
      const context: BenchContext = { bare, fastify, peer, keystreams, accessTokens };

      for (const scenario of SCENARIOS) {
        if (!wants(scenario.key)) continue;
        log(`scenario: ${scenario.title}`);
        figures[scenario.key] = await measure(scenario.key, await scenario.contenders(context));
      }
      // Stop the servers now (the profiles are written on exit) and free the CPUs for paging.
      for (const stop of stops.splice(0).reverse()) await stop();
      if (PROFILE) {
        for (const t of keystreams) {
          if (!t.profileDir || !fs.existsSync(t.profileDir)) continue;
          for (const file of fs.readdirSync(t.profileDir).filter((f) => f.endsWith(".cpuprofile"))) {
            const summary = summarizeProfile(path.join(t.profileDir, file), 25);
            profiles[t.name] = summary;
            process.stdout.write(
              `\nCPU profile of ${t.name} (${path.relative(ROOT, path.join(t.profileDir, file))}):\n${summary}\n`,
            );
          }
        }
      }
    }
    if (wants("paging")) {
      log("scenario: activity paging latency (app.inject, session cookie), 10k vs 1M rows");
      paging = await runPaging("sqlite", undefined);
      if (postgres) paging.push(...(await runPaging("postgres", postgres)));
    }
    if (wants("push-sockets") || wants("push-latency")) {
      log("scenario: push (idle websockets' memory; publish → notify_activity latency)");
      push = await runPush(postgres, { sockets: wants("push-sockets"), latency: wants("push-latency") });
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    releasePostgres(postgres);
  }

  // Ratios against the reference measured in this same run.
  const lines: Line[] = [...throughputLines(figures), ...pagingLines(paging)];
  const wallSeconds = (performance.now() - started) / 1000;
  const report = [
    `Keystream bench, ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})`,
    `${REPS} × ${DURATION} s per figure (median), ${WARMUP} s warm-up, ${CONNECTIONS} connections, autocannon on 127.0.0.1` +
      (PIN ? ", servers on CPU 0 and load generator on CPU 1" : ""),
    skippedPostgres ? `PostgreSQL skipped: ${skippedPostgres}` : "",
    "",
    lines.length > 0 ? table(lines) : "",
    "",
    footprint.length > 0 ? `${footprintTable(footprint)}\n` : "",
    push.length > 0 ? `${pushTable(push)}\n` : "",
    `wall time ${wallSeconds.toFixed(0)} s`,
  ]
    .filter((l, i) => l !== "" || i > 2)
    .join("\n");
  process.stdout.write(`${report}\n`);
  fs.mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `bench-${STAMP}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        settings: { duration: DURATION, reps: REPS, warmup: WARMUP, connections: CONNECTIONS, pinned: PIN },
        postgres: skippedPostgres ? { skipped: skippedPostgres } : { adminUrl: postgres?.adminUrl.replace(/\/\/[^@]*@/, "//") },
        lines,
        figures,
        paging,
        footprint,
        push,
        profiles,
        wallSeconds,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`results written to ${path.relative(process.cwd(), file)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
