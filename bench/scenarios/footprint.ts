/**
 * Footprint: how soon a freshly started server answers, and how much memory it holds once idle.
 * Keystream on SQLite and on PostgreSQL (a fresh data directory and database each time: a first
 * start, with its migrations and its signing key), Fastify alone and panva's oidc-provider, each a
 * plain `node <file>` (the two TypeScript references are compiled to JavaScript first: a TypeScript
 * loader would be counted otherwise), on every CPU (not pinned), one at a time, in rounds.
 *
 * - Ready: from spawning the process to the first 200 of its readiness URL (Keystream
 *   /health/ready, oidc-provider its discovery document, Fastify its route), polled every 10 ms;
 *   and the process's own CPU time by then (/proc/<pid>/stat, 10 ms ticks).
 * - Idle RSS: VmRSS (and its anonymous and file-backed parts) from /proc/<pid>/status after
 *   BENCH_FOOTPRINT_IDLE seconds without a request.
 * - After a forced GC: a separate start with `--expose-gc` and bench/servers/gc-probe.cjs, which on
 *   SIGUSR2 collects all garbage and reports RSS and V8's heap: what is live, not merely unreturned.
 *
 * BENCH_FOOTPRINT_BASELINE=<checkout with a built dist/> adds that build's Keystream rows (before/after).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { build } from "esbuild";
import { median } from "../lib/load.js";
import { adminQuery, databaseUrl, type Postgres } from "../lib/postgres.js";
import { freePort } from "../lib/processes.js";
import { log, PIN, ROOT } from "../lib/settings.js";

const IDLE_SECONDS = Number(process.env.BENCH_FOOTPRINT_IDLE ?? 5);
const REPS = Number(process.env.BENCH_FOOTPRINT_REPS ?? 3);
const BASELINE = process.env.BENCH_FOOTPRINT_BASELINE;
/** The targets for a fresh Keystream node. */
const TARGET_RSS_MB = 80;
const TARGET_READY_MS = 1000;

interface Sample {
  readyMs: number;
  cpuMs: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
}

interface AfterGc {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
}

export interface FootprintFigure {
  target: string;
  keystream: boolean;
  samples: Sample[];
  readyMs: number;
  cpuMs: number;
  rssMb: number;
  anonMb: number;
  fileMb: number;
  afterGc: AfterGc | null;
}

/** One kind of server: how to start a fresh one and where it says it is ready. */
interface Contender {
  name: string;
  keystream: boolean;
  start(port: number, nodeFlags: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; cleanup(): Promise<void> }>;
  readyPath: string;
}

const MB = 1024 * 1024;

function spawnNode(file: string, nodeFlags: string[], env: NodeJS.ProcessEnv, stdout: string): ChildProcess {
  const out = fs.openSync(stdout, "w");
  const args = [...nodeFlags, file];
  // The bench pins itself to one CPU (BENCH_PIN): a start-up is measured on every CPU, as a server starts.
  const [command, argv] = PIN
    ? ["taskset", ["-c", `0-${os.cpus().length - 1}`, process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", ...env },
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  return child;
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

function keystream(name: string, dist: string, postgres: Postgres | undefined): Contender {
  return {
    name,
    keystream: true,
    readyPath: "/health/ready",
    async start(port, nodeFlags, env) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-footprint-"));
      let dbName: string | undefined;
      let url = "";
      if (postgres) {
        dbName = `ks_footprint_${randomBytes(5).toString("hex")}`;
        await adminQuery(postgres.adminUrl, `CREATE DATABASE ${dbName}`);
        url = databaseUrl(postgres.adminUrl, dbName);
      }
      const child = spawnNode(
        path.join(dist, "main.js"),
        nodeFlags,
        {
          ...env,
          KEYSTREAM_DATA_DIR: dataDir,
          KEYSTREAM_DATABASE_URL: url,
          HOST: "127.0.0.1",
          PORT: String(port),
          LOG_LEVEL: "info",
        },
        path.join(os.tmpdir(), `${path.basename(dataDir)}.log`),
      );
      return {
        child,
        async cleanup() {
          await stopped(child);
          fs.rmSync(dataDir, { recursive: true, force: true });
          fs.rmSync(path.join(os.tmpdir(), `${path.basename(dataDir)}.log`), { force: true });
          if (dbName && postgres) await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        },
      };
    },
  };
}

/** A reference server of bench/servers/, compiled to plain JavaScript once. */
function reference(name: string, compiled: string, readyPath: string): Contender {
  return {
    name,
    keystream: false,
    readyPath,
    async start(port, nodeFlags, env) {
      const child = spawnNode(compiled, nodeFlags, { ...env, PORT: String(port) }, `${compiled}.${port}.log`);
      return {
        child,
        async cleanup() {
          await stopped(child);
          fs.rmSync(`${compiled}.${port}.log`, { force: true });
        },
      };
    },
  };
}

/** bench/servers/<file>.ts as JavaScript under .tmp/ (git-ignored, and where node_modules resolves). */
async function compiled(file: string): Promise<string> {
  const outfile = path.join(ROOT, ".tmp", "footprint", file.replace(/\.ts$/, ".mjs"));
  await build({
    entryPoints: [path.join(ROOT, "bench", "servers", file)],
    outfile,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  return outfile;
}

function statusKb(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
}

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function waitReady(child: ChildProcess, url: string, started: number): Promise<number> {
  const deadline = started + 60_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await sleep(10);
  }
  throw new Error(`${url}: not ready within 60 s`);
}

async function sample(contender: Contender): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const { child, cleanup } = await contender.start(port, [], {});
  try {
    const readyMs = await waitReady(child, `http://127.0.0.1:${port}${contender.readyPath}`, started);
    const pid = child.pid as number;
    const cpu = cpuMs(pid);
    await sleep(IDLE_SECONDS * 1000);
    return {
      readyMs,
      cpuMs: cpu,
      rssMb: statusKb(pid, "VmRSS") / 1024,
      anonMb: statusKb(pid, "RssAnon") / 1024,
      fileMb: statusKb(pid, "RssFile") / 1024,
    };
  } finally {
    await cleanup();
  }
}

async function afterGc(contender: Contender): Promise<AfterGc | null> {
  const port = await freePort();
  const probe = path.join(os.tmpdir(), `footprint-gc-${port}.json`);
  const started = performance.now();
  const { child, cleanup } = await contender.start(
    port,
    ["--expose-gc", "-r", path.join(ROOT, "bench", "servers", "gc-probe.cjs")],
    { FOOTPRINT_PROBE_FILE: probe },
  );
  try {
    await waitReady(child, `http://127.0.0.1:${port}${contender.readyPath}`, started);
    await sleep(IDLE_SECONDS * 1000);
    child.kill("SIGUSR2");
    for (let i = 0; i < 100 && !fs.existsSync(probe); i++) await sleep(50);
    if (!fs.existsSync(probe)) return null;
    const report = JSON.parse(fs.readFileSync(probe, "utf8")) as { rssKb: number; heapUsed: number; heapTotal: number };
    return { rssMb: report.rssKb / 1024, heapUsedMb: report.heapUsed / MB, heapTotalMb: report.heapTotal / MB };
  } finally {
    fs.rmSync(probe, { force: true });
    await cleanup();
  }
}

export async function runFootprint(postgres: Postgres | undefined): Promise<FootprintFigure[]> {
  const dist = path.join(ROOT, "dist");
  const contenders: Contender[] = [keystream("Keystream SQLite", dist, undefined)];
  if (postgres) contenders.push(keystream("Keystream PostgreSQL", dist, postgres));
  if (BASELINE) {
    const baseline = path.join(path.resolve(BASELINE), "dist");
    contenders.push(keystream("Keystream SQLite (baseline)", baseline, undefined));
    if (postgres) contenders.push(keystream("Keystream PostgreSQL (baseline)", baseline, postgres));
  }
  contenders.push(reference("Fastify alone", await compiled("bare-fastify.ts"), "/"));
  contenders.push(reference("oidc-provider", await compiled("oidc-provider-peer.ts"), "/.well-known/openid-configuration"));

  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
  for (let round = 1; round <= REPS; round++) {
    for (const contender of contenders) {
      const s = await sample(contender);
      samples.get(contender.name)?.push(s);
      log(
        `  footprint ${round}/${REPS} ${contender.name}: ready ${s.readyMs.toFixed(0)} ms (CPU ${s.cpuMs.toFixed(0)} ms), ` +
          `RSS ${s.rssMb.toFixed(1)} MB after ${IDLE_SECONDS} s idle`,
      );
    }
  }
  const figures: FootprintFigure[] = [];
  for (const contender of contenders) {
    const list = samples.get(contender.name) ?? [];
    const gc = await afterGc(contender);
    figures.push({
      target: contender.name,
      keystream: contender.keystream,
      samples: list,
      readyMs: median(list.map((s) => s.readyMs)),
      cpuMs: median(list.map((s) => s.cpuMs)),
      rssMb: median(list.map((s) => s.rssMb)),
      anonMb: median(list.map((s) => s.anonMb)),
      fileMb: median(list.map((s) => s.fileMb)),
      afterGc: gc,
    });
  }
  return figures;
}

/** The printed table: medians of the rounds, the after-GC figures of one start, the targets for Keystream. */
export function footprintTable(figures: FootprintFigure[]): string {
  const header = [
    "footprint (fresh start)",
    "ready",
    "CPU to ready",
    `RSS idle ${IDLE_SECONDS} s`,
    "anon + file",
    "RSS after GC",
    "heap used",
    "target",
  ];
  const rows = figures.map((f) => {
    const met = f.rssMb <= TARGET_RSS_MB && f.readyMs <= TARGET_READY_MS;
    return [
      f.target,
      `${f.readyMs.toFixed(0)} ms`,
      `${f.cpuMs.toFixed(0)} ms`,
      `${f.rssMb.toFixed(1)} MB`,
      `${f.anonMb.toFixed(1)} + ${f.fileMb.toFixed(1)}`,
      f.afterGc ? `${f.afterGc.rssMb.toFixed(1)} MB` : "–",
      f.afterGc ? `${f.afterGc.heapUsedMb.toFixed(1)} MB` : "–",
      f.keystream && !f.target.endsWith("(baseline)") ? `≤ ${TARGET_RSS_MB} MB, ≤ ${TARGET_READY_MS} ms ${met ? "✓" : "✗"}` : "",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 7 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ");
  return [
    fmt(header),
    widths.map((w) => "-".repeat(w)).join("-+-"),
    ...rows.map(fmt),
    `(medians of ${REPS} starts each, in rounds; ready is wall time from spawn, so it includes Node's own start)`,
  ].join("\n");
}
