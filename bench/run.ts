/**
 * `npm run bench` (issue 6): Keystream against the bare node:http ceiling and panva's oidc-provider,
 * on SQLite and on PostgreSQL, with autocannon on loopback. Not part of `npm test`.
 *
 * Every figure is the median of BENCH_REPS runs of BENCH_DURATION seconds (after a warm-up), and
 * the runs of one scenario are interleaved across servers in rounds (A B C, A B C, …) so that a
 * noisy neighbour hits all of them alike; each figure's ratio to its reference is the median over
 * rounds of the ratio within a round. Prints a table and writes JSON to bench/results/.
 *
 *   npm run bench                          # everything (builds dist/ first)
 *   BENCH_ONLY=userinfo,code npm run bench  # some scenarios: userinfo, code, refresh, activity, paging
 *   BENCH_PROFILE=1 npm run bench          # Keystream nodes run with --cpu-prof; top functions printed
 *   BENCH_PG=0 npm run bench               # skip PostgreSQL
 *
 * Environment: BENCH_DURATION (3 s), BENCH_REPS (5), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (16),
 * BENCH_PAGING_ROWS (10000,1000000), BENCH_PIN (1: servers on CPU 0, load generator on CPU 1),
 * BENCH_LOG_LEVEL (info: Keystream's LOG_LEVEL),
 * KEYSTREAM_BENCH_DATABASE_URL (a PostgreSQL server URL whose user may create databases; default:
 * the private cluster of scripts/dev-postgres.sh, started here if it is not running and stopped
 * again at the end).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import pino from "pino";
import type { NewActivity } from "../src/activity/domain/event.js";
import { createServices } from "../src/services.js";
import { openStorage, type Storage } from "../src/storage/connect.js";
import type { Db } from "../src/storage/database.js";
import { migrateToLatest } from "../src/storage/migrate.js";
import { type CaseResult, fillActivities, measurePaging, row } from "./activity-paging.js";
import { type LoadResult, median, runLoad } from "./lib/load.js";
import { mintGrants } from "./lib/mint.js";
import { type RunningServer, startServer } from "./lib/processes.js";
import { summarizeProfile } from "./lib/profile.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RESULTS = path.join(ROOT, "bench", "results");
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PAGING_ROWS = (process.env.BENCH_PAGING_ROWS ?? "10000,1000000").split(",").map(Number);
const PAGING_ITERATIONS = Number(process.env.BENCH_PAGING_ITERATIONS ?? 300);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : undefined;
const PROFILE = process.env.BENCH_PROFILE === "1";
/** Keystream's LOG_LEVEL: info (one access-log line per request) as in production; warn measures without it. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "info";
const STAMP = new Date().toISOString().replace(/[:.]/g, "-");
const PROFILE_DIR = path.join(RESULTS, `profiles-${STAMP}`);

/** The peer's client (bench/servers/oidc-provider-peer.ts); Keystream registers the same one. */
const CLIENT = {
  id: "bench-client-0123456789abcdef0123456789",
  secret: "bench-secret-0123456789abcdef0123456789abcdef",
  redirectUri: "http://127.0.0.1:9/cb",
};
const BASIC = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`;
const BENCH_USER = "bench-user";
const ACTIVITY_ROWS = 2_000;

const log = (message: string) => process.stderr.write(`${message}\n`);
const wants = (scenario: string) => !ONLY || ONLY.has(scenario);

// --- CPU placement ---------------------------------------------------------------------------

const PIN =
  process.env.BENCH_PIN !== "0" && os.cpus().length >= 2 && spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0;

/** Servers on CPU 0; this process (the load generator) on CPU 1. PostgreSQL's backends float. */
function serverCommand(args: string[]): [string, string[]] {
  return PIN ? ["taskset", ["-c", "0", process.execPath, ...args]] : [process.execPath, args];
}

// --- PostgreSQL --------------------------------------------------------------------------------

interface Postgres {
  adminUrl: string;
  startedHere: boolean;
}

function findPostgres(): Postgres | string {
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

async function adminQuery(adminUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// --- Keystream nodes ---------------------------------------------------------------------------

interface Target {
  name: string;
  base: string;
  tokenPath: string;
  userinfoPath: string;
  activityPath?: string;
  /** Fresh single-use artefacts minted outside the measured server's load (its own models/store). */
  mint(kind: "code" | "refresh" | "access", n: number): Promise<string[]>;
  server: RunningServer;
  cleanup(): Promise<void>;
  profileDir?: string;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function startKeystream(
  dialect: "sqlite" | "postgres",
  postgres: Postgres | undefined,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `keystream-bench-${dialect}-`));
  let url: string | undefined;
  let dbName: string | undefined;
  if (dialect === "postgres" && postgres) {
    dbName = `ks_bench_${randomBytes(5).toString("hex")}`;
    await adminQuery(postgres.adminUrl, `CREATE DATABASE ${dbName}`);
    url = databaseUrl(postgres.adminUrl, dbName);
  }
  const storage = openStorage({ databaseUrl: url, dataDir });
  await migrateToLatest(storage);
  const services = createServices({ storage, dataDir, log: pino({ level: "silent" }) });
  await services.users.create({
    uid: BENCH_USER,
    password: randomBytes(12).toString("hex"),
    displayName: "Bench User",
    email: "bench@example.com",
  });
  const added = await services.oauth.clients.add({
    name: "Bench client",
    clientId: CLIENT.id,
    secret: CLIENT.secret,
    redirectUri: CLIENT.redirectUri,
    allowSubdomains: "false",
    trusted: "false",
    forceTrust: "true",
  });
  if (!added.ok) throw new Error(`bench client not added: ${added.message}`);
  const client = await storage.db
    .selectFrom("oauth2_clients")
    .select("id")
    .where("client_id", "=", CLIENT.id)
    .executeTakeFirstOrThrow();
  // Recent timestamps: the daily activity:expire job (365 days) runs on start and would delete
  // activities dated like bench/activity-paging.ts's (2023).
  const now = Math.floor(Date.now() / 1000);
  const rows: NewActivity[] = Array.from({ length: ACTIVITY_ROWS }, (_, i) => ({
    ...row(BENCH_USER, i),
    timestamp: now - ACTIVITY_ROWS + i,
  }));
  await services.activity.store.insertAll(rows);

  const profileDir = PROFILE ? path.join(PROFILE_DIR, dialect) : undefined;
  const [command, args] = serverCommand([
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    path.join(ROOT, "dist", "main.js"),
  ]);
  const env: NodeJS.ProcessEnv = { KEYSTREAM_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: LOG_LEVEL };
  env.KEYSTREAM_DATABASE_URL = url ?? "";
  Object.assign(env, extraEnv);
  const server = await startServer(command, args, env, { stdoutFile: path.join(dataDir, "keystream.log") });
  return {
    name: dialect === "sqlite" ? "Keystream SQLite" : "Keystream PostgreSQL",
    base: `http://127.0.0.1:${server.port}`,
    tokenPath: "/index.php/apps/oauth2/api/v1/token",
    userinfoPath: "/index.php/apps/oauth2/api/v1/userinfo",
    activityPath: "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=50",
    mint: (kind, n) =>
      mintGrants(storage.db, { clientInternalId: Number(client.id), uid: BENCH_USER, redirectUri: CLIENT.redirectUri }, kind, n),
    server,
    profileDir,
    async cleanup() {
      await server.stop();
      await storage.close();
      if (dbName && postgres) await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startPeer(): Promise<Target> {
  const [command, args] = serverCommand([
    "--expose-gc",
    "--import",
    "tsx",
    path.join(ROOT, "bench", "servers", "oidc-provider-peer.ts"),
  ]);
  const server = await startServer(command, args, { PORT: "0" });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    name: "oidc-provider",
    base,
    tokenPath: "/token",
    userinfoPath: "/me",
    async mint(kind, n) {
      const out: string[] = [];
      for (let left = n; left > 0; left -= 5000) {
        const response = await fetch(`${base}/bench/seed?kind=${kind}&n=${Math.min(5000, left)}`, { method: "POST" });
        if (!response.ok) throw new Error(`peer seed: HTTP ${response.status} ${await response.text()}`);
        out.push(...((await response.json()) as string[]));
      }
      return out;
    },
    server,
    cleanup: () => server.stop(),
  };
}

/** Bare node:http answering a fixed JSON body: the reference of userinfo and the activity page. */
const CEILING = "node:http (ceiling)";
/** Fastify alone, answering the ceiling's body: what the framework costs before any work. */
const FASTIFY_FLOOR = "Fastify alone (fixed JSON)";

async function startBare(file: "bare-node.ts" | "bare-fastify.ts"): Promise<RunningServer> {
  const [command, args] = serverCommand(["--import", "tsx", path.join(ROOT, "bench", "servers", file)]);
  return startServer(command, args, { PORT: "0" });
}

/** A server answering its fixed body on `/`, loaded as it is (the ceiling, the Fastify floor). */
function fixedBodyContender(name: string, server: RunningServer): Contender {
  return {
    name,
    pid: server.child.pid,
    run: (seconds) => runLoad({ url: `http://127.0.0.1:${server.port}/`, connections: CONNECTIONS, durationSeconds: seconds }),
  };
}

// --- Scenarios ---------------------------------------------------------------------------------

interface Figure {
  target: string;
  okPerSecond: number;
  /** Server CPU time (user + system, from /proc) per 2xx answer: steadier than req/s on a busy machine. */
  cpuMicrosPerOk: number | null;
  p50Ms: number;
  p99Ms: number;
  runs: LoadResult[];
}

interface Contender {
  name: string;
  /** The server's process id, for its CPU time (Linux /proc). */
  pid?: number | undefined;
  /**
   * Work before a run that is not part of it (minting the peer's codes goes through the peer's own
   * process): done before the server's CPU time is read, so it does not count.
   */
  prepare?(seconds: number): Promise<void>;
  /** One bounded run; `seconds` is the run's length. */
  run(seconds: number): Promise<LoadResult>;
}

const CLOCK_TICKS = 100;

/** User + system CPU time of a process in µs (Linux /proc; undefined elsewhere). */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Warm-up for each, then REPS rounds, each round running every contender once (interleaved). */
async function measure(scenario: string, contenders: Contender[]): Promise<Figure[]> {
  for (const c of contenders) {
    log(`  ${scenario}: warm-up ${c.name}`);
    await c.prepare?.(WARMUP);
    await c.run(WARMUP);
  }
  const runs = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  const cpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let rep = 1; rep <= REPS; rep++) {
    for (const c of contenders) {
      await c.prepare?.(DURATION);
      const before = cpuMicros(c.pid);
      const result = await c.run(DURATION);
      const after = cpuMicros(c.pid);
      runs.get(c.name)!.push(result);
      const perOk =
        before !== undefined && after !== undefined && result.okPerSecond > 0
          ? (after - before) / (result.okPerSecond * DURATION)
          : undefined;
      if (perOk !== undefined) cpu.get(c.name)!.push(perOk);
      log(
        `  ${scenario}: ${c.name} run ${rep}/${REPS}: ${Math.round(result.okPerSecond)} ok/s` +
          (perOk === undefined ? "" : `, ${Math.round(perOk)} µs CPU each`) +
          (result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ""),
      );
    }
  }
  return contenders.map((c) => {
    const list = runs.get(c.name)!;
    return {
      target: c.name,
      okPerSecond: median(list.map((r) => r.okPerSecond)),
      cpuMicrosPerOk: cpu.get(c.name)!.length > 0 ? median(cpu.get(c.name)!) : null,
      p50Ms: median(list.map((r) => r.p50Ms)),
      p99Ms: median(list.map((r) => r.p99Ms)),
      runs: list,
    };
  });
}

const FORM = "application/x-www-form-urlencoded";

/** One request before the load: a server that refuses it would only measure its error path. */
async function probe(url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`probe ${url}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
}

async function userinfoContender(target: Target, token: string): Promise<Contender> {
  await probe(`${target.base}${target.userinfoPath}`, { authorization: `Bearer ${token}` });
  return {
    name: target.name,
    pid: target.server.child.pid,
    run: (seconds) =>
      runLoad({
        url: `${target.base}${target.userinfoPath}`,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        durationSeconds: seconds,
      }),
  };
}

/** Code → token: a pool minted before each run, sized from the rate seen so far (every code used once). */
function codeContender(target: Target): Contender {
  // Generous: a warm-up (cold JIT) underestimates the rate, and a pool that runs dry spoils the run.
  let rate = 4000;
  let codes: string[] = [];
  return {
    name: target.name,
    pid: target.server.child.pid,
    async prepare(seconds) {
      codes = await target.mint("code", Math.ceil(rate * seconds * 2.5) + 1000);
    },
    async run(seconds) {
      let next = 0;
      const redirect = encodeURIComponent(CLIENT.redirectUri);
      const result = await runLoad({
        url: `${target.base}${target.tokenPath}`,
        method: "POST",
        headers: { authorization: BASIC, "content-type": FORM },
        body: "grant_type=authorization_code&code=pool-ran-dry",
        nextBody: () =>
          next < codes.length ? `grant_type=authorization_code&code=${codes[next++]}&redirect_uri=${redirect}` : null,
        connections: CONNECTIONS,
        durationSeconds: seconds,
      });
      rate = Math.max(rate, result.okPerSecond);
      if (next >= codes.length) log(`  warning: ${target.name} used up its ${codes.length} codes`);
      return result;
    },
  };
}

/** Refresh rotation: a pool of refresh tokens; each answer's new refresh token goes back in. */
async function refreshContender(target: Target): Promise<Contender> {
  const pool = await target.mint("refresh", 2000);
  return {
    name: target.name,
    pid: target.server.child.pid,
    run: (seconds) =>
      runLoad({
        url: `${target.base}${target.tokenPath}`,
        method: "POST",
        headers: { authorization: BASIC, "content-type": FORM },
        body: "grant_type=refresh_token&refresh_token=pool-ran-dry",
        nextBody: () => {
          const token = pool.shift();
          return token === undefined ? null : `grant_type=refresh_token&refresh_token=${token}`;
        },
        onBody: (status, body) => {
          if (status !== 200) return;
          const next = (JSON.parse(body) as { refresh_token?: string }).refresh_token;
          if (next) pool.push(next);
        },
        connections: CONNECTIONS,
        durationSeconds: seconds,
      }),
  };
}

async function activityContender(target: Target, token: string): Promise<Contender> {
  await probe(`${target.base}${target.activityPath}`, { authorization: `Bearer ${token}` });
  return {
    name: target.name,
    pid: target.server.child.pid,
    run: (seconds) =>
      runLoad({
        url: `${target.base}${target.activityPath}`,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        durationSeconds: seconds,
      }),
  };
}

// --- Activity paging at 10k and 1M rows --------------------------------------------------------

interface PagingRun {
  dialect: string;
  rows: number;
  fillSeconds: number | null;
  cached: boolean;
  cases: Record<string, CaseResult>;
}

async function countTarget(db: Db): Promise<number> {
  const result = await db
    .selectFrom("activity")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("affecteduser", "=", "user000")
    .executeTakeFirst();
  return Number(result?.n ?? 0);
}

/**
 * A database with `rows` activities for user000 (bench/activity-paging.ts's data set). 1M rows take
 * long to write, so the filled database is kept: SQLite as a file under bench/results/cache/, and
 * PostgreSQL as the database ks_bench_activity_<rows> (kept as long as the cluster is).
 */
async function pagingStorage(
  dialect: "sqlite" | "postgres",
  rows: number,
  postgres: Postgres | undefined,
): Promise<{ storage: Storage; dataDir: string; fillSeconds: number | null; cached: boolean; done(): Promise<void> }> {
  const keep = rows >= 100_000;
  if (dialect === "sqlite") {
    const dataDir = keep ? path.join(RESULTS, "cache") : fs.mkdtempSync(path.join(os.tmpdir(), "keystream-paging-"));
    const file = `activity-${rows}.sqlite`;
    if (keep && fs.existsSync(path.join(dataDir, file))) {
      const storage = openStorage({ dataDir, sqliteFile: file });
      await migrateToLatest(storage);
      if ((await countTarget(storage.db)) === rows) {
        return { storage, dataDir, fillSeconds: null, cached: true, done: () => storage.close() };
      }
      await storage.close();
    }
    const partial = `${file}.partial`;
    fs.mkdirSync(dataDir, { recursive: true });
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(path.join(dataDir, partial + suffix), { force: true });
    let storage = openStorage({ dataDir, sqliteFile: keep ? partial : file });
    await migrateToLatest(storage);
    const fillSeconds = await fillActivities(storage.db, rows);
    if (keep) {
      await storage.close();
      fs.renameSync(path.join(dataDir, partial), path.join(dataDir, file));
      storage = openStorage({ dataDir, sqliteFile: file });
    }
    const opened = storage;
    return {
      storage: opened,
      dataDir,
      fillSeconds,
      cached: false,
      async done() {
        await opened.close();
        if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!postgres) throw new Error("no PostgreSQL");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-paging-pg-"));
  const name = keep ? `ks_bench_activity_${rows}` : `ks_bench_paging_${randomBytes(5).toString("hex")}`;
  const exists = (await adminQuery(postgres.adminUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rowCount === 1;
  const cleanup = async (storage: Storage) => {
    await storage.close();
    if (!keep) await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  if (exists) {
    const storage = openStorage({ databaseUrl: databaseUrl(postgres.adminUrl, name), dataDir });
    await migrateToLatest(storage);
    if ((await countTarget(storage.db)) === rows) {
      return { storage, dataDir, fillSeconds: null, cached: true, done: () => cleanup(storage) };
    }
    await storage.close();
    await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  // Filled under another name and renamed when complete: an interrupted fill is never reused.
  const partial = keep ? `${name}_partial` : name;
  await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
  await adminQuery(postgres.adminUrl, `CREATE DATABASE ${partial}`);
  let storage = openStorage({ databaseUrl: databaseUrl(postgres.adminUrl, partial), dataDir });
  await migrateToLatest(storage);
  const fillSeconds = await fillPostgres(storage.db, rows);
  if (keep) {
    await storage.close();
    // pg's Pool.end() resolves before its backends are gone; the rename needs them gone.
    for (let attempt = 0; ; attempt++) {
      try {
        await adminQuery(postgres.adminUrl, `ALTER DATABASE ${partial} RENAME TO ${name}`);
        break;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    storage = openStorage({ databaseUrl: databaseUrl(postgres.adminUrl, name), dataDir });
  }
  const opened = storage;
  return { storage: opened, dataDir, fillSeconds, cached: false, done: () => cleanup(opened) };
}

const ACTIVITY_COLUMNS = [
  "timestamp",
  "app",
  "type",
  "user",
  "affecteduser",
  "is_self",
  "category",
  "subject",
  "subjectparams",
  "message",
  "messageparams",
  "link",
  "object_type",
  "object_id",
  "object_name",
] as const;
const ARRAY_TYPES: Partial<Record<(typeof ACTIVITY_COLUMNS)[number], string>> = {
  timestamp: "bigint",
  is_self: "integer",
  object_id: "bigint",
};

/**
 * PostgreSQL bulk load of the 1M data set, as pg_restore does it: rows through unnest() (one
 * array per column), secondary indexes dropped before and rebuilt after, then ANALYZE (what
 * autovacuum would do soon after on a live server). Row by row it takes minutes; this ~3× less.
 */
async function fillPostgres(db: Db, rows: number): Promise<number> {
  const started = performance.now();
  const indexes = (
    await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'activity' AND indexname <> 'activity_pkey'`.execute(db)
  ).rows;
  for (const index of indexes) await sql`DROP INDEX ${sql.ref(index.indexname)}`.execute(db);
  await fillActivities(db, rows, async (db, batch) => {
    for (const chunk of chunks(batch, 25_000)) {
      const arrays = ACTIVITY_COLUMNS.map(
        (column) => sql`${chunk.map((r) => r[column])}::${sql.raw(ARRAY_TYPES[column] ?? "text")}[]`,
      );
      await sql`INSERT INTO activity (${sql.join(ACTIVITY_COLUMNS.map((c) => sql.ref(c)))}) SELECT * FROM unnest(${sql.join(arrays)})`.execute(
        db,
      );
    }
  });
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
  await sql`ANALYZE`.execute(db);
  return (performance.now() - started) / 1000;
}

async function runPaging(dialect: "sqlite" | "postgres", postgres: Postgres | undefined): Promise<PagingRun[]> {
  const out: PagingRun[] = [];
  for (const rows of PAGING_ROWS) {
    log(`  paging ${dialect} ${rows.toLocaleString("en")} rows: preparing…`);
    const prepared = await pagingStorage(dialect, rows, postgres);
    try {
      log(
        `  paging ${dialect} ${rows.toLocaleString("en")} rows: ${prepared.cached ? "cached" : `filled in ${prepared.fillSeconds?.toFixed(1)} s`}`,
      );
      const cases = await measurePaging(prepared.storage, prepared.dataDir, rows, PAGING_ITERATIONS);
      out.push({ dialect, rows, fillSeconds: prepared.fillSeconds, cached: prepared.cached, cases });
    } finally {
      await prepared.done();
    }
  }
  return out;
}

// --- Report ------------------------------------------------------------------------------------

interface Line {
  scenario: string;
  target: string;
  value: number;
  unit: string;
  /** Server CPU µs per 2xx answer (throughput scenarios). */
  cpu?: number | null;
  reference: string;
  ratio: number | null;
  goal?: string;
}

function table(lines: Line[]): string {
  const header = ["scenario", "server", "median", "CPU µs/req", "reference", "ratio", "target"];
  const body = lines.map((l) => [
    l.scenario,
    l.target,
    `${l.unit === "ms" ? l.value.toFixed(2) : Math.round(l.value).toLocaleString("en")} ${l.unit}`,
    l.cpu === undefined || l.cpu === null ? "" : String(Math.round(l.cpu)),
    l.reference,
    l.ratio === null ? "–" : `${l.ratio.toFixed(2)}×`,
    l.goal ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 2 || i === 3 || i === 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(" | ");
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("-+-"), ...body.map(fmt)].join("\n");
}

// --- Main --------------------------------------------------------------------------------------

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
  const profiles: Record<string, string> = {};
  try {
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
    const oauthTargets = [peer, ...keystreams];
    const accessTokens = new Map<string, string>();
    for (const t of oauthTargets) accessTokens.set(t.name, (await t.mint("access", 1))[0]!);

    if (wants("userinfo")) {
      log("scenario: userinfo (GET with a bearer token; the ceiling and the Fastify floor answer a fixed JSON body)");
      figures.userinfo = await measure("userinfo", [
        fixedBodyContender(CEILING, bare),
        fixedBodyContender(FASTIFY_FLOOR, fastify),
        ...(await Promise.all(oauthTargets.map((t) => userinfoContender(t, accessTokens.get(t.name)!)))),
      ]);
    }
    if (wants("code")) {
      log("scenario: code → token exchange (client_secret_basic, one pre-minted code per request)");
      figures.code = await measure("code", oauthTargets.map(codeContender));
    }
    if (wants("refresh")) {
      log("scenario: refresh rotation (a pool of 2000 refresh tokens, each answer's new one goes back in)");
      figures.refresh = await measure("refresh", await Promise.all(oauthTargets.map(refreshContender)));
    }
    if (wants("activity")) {
      log(`scenario: activity page (bearer, limit 50, ${ACTIVITY_ROWS} activities) against the ceiling`);
      figures.activity = await measure("activity", [
        fixedBodyContender(CEILING, bare),
        ...(await Promise.all(keystreams.map((t) => activityContender(t, accessTokens.get(t.name)!)))),
      ]);
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
    if (wants("paging")) {
      log("scenario: activity paging latency (app.inject, session cookie), 10k vs 1M rows");
      paging = await runPaging("sqlite", undefined);
      if (postgres) paging.push(...(await runPaging("postgres", postgres)));
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (postgres?.startedHere) {
      spawnSync(path.join(ROOT, "scripts", "dev-postgres.sh"), ["stop"], { stdio: "ignore" });
    }
  }

  // Ratios against the reference measured in this same run.
  const lines: Line[] = [];
  const get = (scenario: string, target: string) => figures[scenario]?.find((f) => f.target === target);
  const ceiling = (scenario: string) => get(scenario, CEILING);
  // Paired by round: each round's runs of all servers follow each other within seconds, so a slow
  // spell of the machine (they last seconds to tens of seconds here) falls on both sides of a
  // round's ratio; the median over rounds then drops the rounds it split.
  const ratio = (a: Figure | undefined, b: Figure | undefined) => {
    if (!a || !b) return null;
    const perRound = a.runs.flatMap((run, round) => {
      const reference = b.runs[round];
      return reference && reference.okPerSecond > 0 ? [run.okPerSecond / reference.okPerSecond] : [];
    });
    return perRound.length > 0 ? median(perRound) : null;
  };
  const labels: Record<string, string> = {
    userinfo: "userinfo req/s",
    code: "code exchanges/s",
    refresh: "refresh rotations/s",
    activity: "activity page req/s (bearer)",
  };
  for (const [scenario, list] of Object.entries(figures)) {
    for (const f of list) {
      const byPeer = scenario === "code" || scenario === "refresh";
      const reference = byPeer ? get(scenario, "oidc-provider") : ceiling(scenario);
      const isReference = reference?.target === f.target;
      lines.push({
        scenario: labels[scenario] ?? scenario,
        target: f.target,
        value: f.okPerSecond,
        unit: "/s",
        cpu: f.cpuMicrosPerOk,
        reference: isReference ? "(reference)" : (reference?.target ?? "–"),
        ratio: isReference ? null : ratio(f, reference),
        goal:
          scenario === "code" && f.target.startsWith("Keystream")
            ? "≥ 1.0× oidc-provider"
            : scenario === "userinfo" && f.target.startsWith("Keystream")
              ? "≥ 0.6× ceiling"
              : undefined,
      });
    }
  }
  const small = Math.min(...PAGING_ROWS);
  for (const run of paging.filter((p) => p.rows !== small)) {
    const base = paging.find((p) => p.dialect === run.dialect && p.rows === small);
    for (const [name, c] of Object.entries(run.cases)) {
      const b = base?.cases[name];
      for (const q of ["p50", "p99"] as const) {
        lines.push({
          scenario: `activity page ${q} "${name}"`,
          target: `Keystream ${run.dialect === "sqlite" ? "SQLite" : "PostgreSQL"} @${run.rows.toLocaleString("en")}`,
          value: c[q],
          unit: "ms",
          reference: b ? `@${small.toLocaleString("en")}: ${b[q].toFixed(2)} ms` : "–",
          ratio: b && b[q] > 0 ? c[q] / b[q] : null,
          goal: "≈ 1",
        });
      }
    }
  }
  const wallSeconds = (performance.now() - started) / 1000;
  const report = [
    `Keystream bench, ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})`,
    `${REPS} × ${DURATION} s per figure (median), ${WARMUP} s warm-up, ${CONNECTIONS} connections, autocannon on 127.0.0.1` +
      (PIN ? ", servers on CPU 0 and load generator on CPU 1" : ""),
    skippedPostgres ? `PostgreSQL skipped: ${skippedPostgres}` : "",
    "",
    table(lines),
    "",
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
