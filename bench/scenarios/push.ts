/**
 * Push (nextcloud/notify_push's protocol, built in; docs/performance.md "Push"):
 *
 * - `push-sockets`: 10,000 authenticated idle websockets (2 per user, 5,000 users) on one fresh
 *   node, from separate client processes; the node's RSS after a full GC with them, against the
 *   same node idle before them (after a warm-up of a few sockets opened and closed, so that the
 *   lazily loaded `ws` and the handshake's code are in both readings): KB per socket. SQLite and
 *   PostgreSQL.
 * - `push-latency`: with those sockets, 100 activities a second published by an administrator
 *   through `POST /index.php/apps/activity/api/v2/events` (open loop: each on its schedule, not
 *   waiting for the previous), each for a user drawn at random (seeded), for 30 s; each client
 *   records when its `notify_activity` frames arrive. Latency: publish acknowledged (its 201) →
 *   frame, on every socket of the publish's user (bench/lib/push-stats.ts); the debounce is in it.
 *   Server CPU per delivered message: the nodes' CPU time (/proc/<pid>/stat) over the load ÷ the
 *   `notify_activity` frames received. That includes the publishes' own HTTP and database work,
 *   so the same publishes are then made for PUSH_BASELINE_SECONDS with every socket closed, and
 *   the CPU above that rate, per message, is reported too; and the CPU of the sockets held idle for
 *   one ping interval (PUSH_UPKEEP_SECONDS) before the load, so that what is left per message is
 *   the delivery itself.
 *   One node on SQLite, one on PostgreSQL, and two on PostgreSQL with each user's two sockets on
 *   different nodes (publishes go to the first; the second hears of them through LISTEN/NOTIFY).
 *
 * Environment: PUSH_SOCKETS (10000), PUSH_USERS (half the sockets), PUSH_RATE (100 a second),
 * PUSH_SECONDS (30), PUSH_BASELINE_SECONDS (10), PUSH_UPKEEP_SECONDS (30), PUSH_CLIENT_PROCESSES (2), PUSH_CONCURRENCY
 * (handshakes in flight per client process, 100), PUSH_CONFIGS (sqlite,postgres,postgres-2nodes).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DEBOUNCE_MS, PING_INTERVAL_MS } from "../../src/push/hub.js";
import { openStorage } from "../../src/storage/driver/connect.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { percentile } from "../lib/load.js";
import { adminQuery, databaseUrl, type Postgres } from "../lib/postgres.js";
import { summarizeProfile } from "../lib/profile.js";
import { ClientProcess, checkFileLimit, cpuMillis, type PushNode, readMemory, startPushNode } from "../lib/push-harness.js";
import type { PushFigure, PushMemory } from "../lib/push-report.js";
import { type PushAccount, seedPushAccounts } from "../lib/push-seed.js";
import { cpuMicrosPerMessage, kilobytesPerSocket, type PublishRecord, summarizeLatency } from "../lib/push-stats.js";
import { log, PROFILE, PROFILE_DIR } from "../lib/settings.js";
import type { ClientAccount } from "../servers/push-clients.js";

const SOCKETS = Number(process.env.PUSH_SOCKETS ?? 10_000);
const USERS = Number(process.env.PUSH_USERS ?? Math.ceil(SOCKETS / 2));
const RATE = Number(process.env.PUSH_RATE ?? 100);
const SECONDS = Number(process.env.PUSH_SECONDS ?? 30);
const BASELINE_SECONDS = Number(process.env.PUSH_BASELINE_SECONDS ?? 10);
const UPKEEP_SECONDS = Number(process.env.PUSH_UPKEEP_SECONDS ?? PING_INTERVAL_MS / 1000);
const CLIENT_PROCESSES = Number(process.env.PUSH_CLIENT_PROCESSES ?? 2);
const CONCURRENCY = Number(process.env.PUSH_CONCURRENCY ?? 100);
const CONFIGS = (process.env.PUSH_CONFIGS ?? "sqlite,postgres,postgres-2nodes").split(",");
/** Sockets opened and closed before the idle reading (loads `ws`, warms the handshake's code). */
const WARMUP_SOCKETS = 100;
/** The issue's latency targets (the memory target: push-report.ts). */
const TARGET_P99_MS = { oneNode: 1000, twoNodes: 1500 };

interface Config {
  key: string;
  label: string;
  dialect: "sqlite" | "postgres";
  nodes: number;
}

const ALL_CONFIGS: Config[] = [
  { key: "sqlite", label: "SQLite, one node", dialect: "sqlite", nodes: 1 },
  { key: "postgres", label: "PostgreSQL, one node", dialect: "postgres", nodes: 1 },
  { key: "postgres-2nodes", label: "PostgreSQL, two nodes", dialect: "postgres", nodes: 2 },
];

/** A small deterministic PRNG (mulberry32): the same users are drawn in every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const wallNow = () => performance.timeOrigin + performance.now();

/** Open loop: publish k leaves at start + k/rate, whether or not earlier ones were answered. */
async function publishLoad(
  base: string,
  admin: PushAccount,
  accounts: PushAccount[],
  seconds: number,
  seed: number,
): Promise<{ records: PublishRecord[]; errors: number; firstError?: string; seconds: number }> {
  const authorization = `Basic ${Buffer.from(`${admin.uid}:${admin.secret}`).toString("base64")}`;
  const draw = random(seed);
  const total = Math.round(RATE * seconds);
  const records: PublishRecord[] = [];
  const pending: Array<Promise<void>> = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const uid = accounts[Math.floor(draw() * accounts.length)]!.uid;
    const body = JSON.stringify({ app: "bench", type: "push_bench", affecteduser: uid, user: admin.uid, subject: "push_bench" });
    const sentAt = wallNow();
    pending.push(
      fetch(`${base}/index.php/apps/activity/api/v2/events`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json", "ocs-apirequest": "true" },
        body,
      }).then(
        async (response) => {
          await response.arrayBuffer();
          const ackedAt = wallNow();
          if (response.status === 201) records.push({ uid, sentAt, ackedAt });
          else {
            errors++;
            firstError ??= `HTTP ${response.status}`;
          }
        },
        (error: unknown) => {
          errors++;
          firstError ??= String(error);
        },
      ),
    );
  }
  await Promise.all(pending);
  return { records, errors, ...(firstError ? { firstError } : {}), seconds: (performance.now() - started) / 1000 };
}

function responseTimes(records: readonly PublishRecord[]): { p50: number; p99: number } {
  const times = records.map((r) => r.ackedAt - r.sentAt);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** Socket j belongs to user j mod users; with two nodes, a user's sockets alternate between them. */
function socketPlan(accounts: PushAccount[], nodes: PushNode[]): ClientAccount[][] {
  const perProcess: ClientAccount[][] = Array.from({ length: CLIENT_PROCESSES }, () => []);
  for (let j = 0; j < SOCKETS; j++) {
    const account = accounts[j % accounts.length]!;
    const node = nodes[Math.floor(j / accounts.length) % nodes.length]!;
    perProcess[j % CLIENT_PROCESSES]!.push({ uid: account.uid, secret: account.secret, url: node.wsUrl });
  }
  return perProcess;
}

/**
 * The nodes' CPU time (ms) over a publish load and the wait after it for frames still on their way
 * (a debounced one waits up to DEBOUNCE_MS), and that span's length (s).
 */
async function cpuOfLoad(
  pids: number[],
  run: () => ReturnType<typeof publishLoad>,
): Promise<{ load: Awaited<ReturnType<typeof publishLoad>>; cpuMillis: number; seconds: number }> {
  const before = pids.map(cpuMillis);
  const load = await run();
  await sleep(DEBOUNCE_MS + 2000);
  const used = pids.reduce((sum, pid, i) => sum + cpuMillis(pid) - before[i]!, 0);
  return { load, cpuMillis: used, seconds: load.seconds + (DEBOUNCE_MS + 2000) / 1000 };
}

/** BENCH_PROFILE=1: each node's profile (the whole run: handshakes, publishes, deliveries), summarised. */
function printProfiles(key: string, nodes: number): void {
  for (let i = 0; i < nodes; i++) {
    const dir = path.join(PROFILE_DIR, `push-${key}-${i}`);
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
      process.stdout.write(
        `\nCPU profile of push ${key} node ${i} (${path.join(dir, file)}):\n${summarizeProfile(path.join(dir, file), 25)}\n`,
      );
    }
  }
}

async function runConfig(config: Config, postgres: Postgres | undefined, latency: boolean): Promise<PushFigure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `keystream-push-${config.key}-`));
  let dbName: string | undefined;
  let url: string | undefined;
  if (config.dialect === "postgres" && postgres) {
    dbName = `ks_push_${randomBytes(5).toString("hex")}`;
    await adminQuery(postgres.adminUrl, `CREATE DATABASE ${dbName}`);
    url = databaseUrl(postgres.adminUrl, dbName);
  }
  const nodes: PushNode[] = [];
  const clients: ClientProcess[] = [];
  try {
    const storage = openStorage({ databaseUrl: url, dataDir });
    await migrateToLatest(storage);
    const seeded = Date.now();
    const { accounts, admin } = await seedPushAccounts(storage, dataDir, USERS);
    await storage.close();
    log(`  push ${config.key}: ${USERS} users with an app password seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    for (let i = 0; i < config.nodes; i++) {
      const name = config.nodes === 1 ? "node" : `node ${"AB"[i]}`;
      nodes.push(
        await startPushNode(name, dataDir, url, PROFILE ? path.join(PROFILE_DIR, `push-${config.key}-${i}`) : undefined),
      );
    }

    // Warm-up: a few sockets on each node, authenticated and closed.
    const warm = new ClientProcess();
    const warmAccounts = nodes.flatMap((node) =>
      socketPlan(accounts, nodes)
        .flat()
        .filter((a) => a.url === node.wsUrl)
        .slice(0, Math.ceil(WARMUP_SOCKETS / nodes.length)),
    );
    const warmed = await warm.connect(warmAccounts, 20);
    await warm.close();
    if (warmed.failed > 0) throw new Error(`push warm-up: ${warmed.failed} sockets refused (${warmed.firstError})`);
    const pids = nodes.map((n) => n.server.child.pid as number);
    await sleep(2000);
    const idle = await Promise.all(nodes.map(readMemory));

    const plan = socketPlan(accounts, nodes);
    for (let i = 0; i < plan.length; i++) clients.push(new ClientProcess());
    const connectStarted = performance.now();
    const connected = await Promise.all(plan.map((share, i) => clients[i]!.connect(share, CONCURRENCY)));
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const authenticated = connected.reduce((n, c) => n + c.authenticated, 0);
    const failed = connected.reduce((n, c) => n + c.failed, 0);
    const firstError = connected.find((c) => c.firstError)?.firstError;
    log(
      `  push ${config.key}: ${authenticated} sockets authenticated in ${connectSeconds.toFixed(1)} s` +
        (failed ? `, ${failed} failed (${firstError})` : ""),
    );
    await sleep(3000);
    const loaded = await Promise.all(nodes.map(readMemory));
    const memory = nodes.map((node, i): PushMemory => {
      const sockets = plan.flat().filter((a) => a.url === node.wsUrl).length;
      return {
        node: node.name,
        sockets,
        idle: idle[i]!,
        loaded: loaded[i]!,
        kbPerSocket: kilobytesPerSocket(idle[i]!.gcRssKb, loaded[i]!.gcRssKb, sockets),
        kbPerSocketNoGc: kilobytesPerSocket(idle[i]!.rssKb, loaded[i]!.rssKb, sockets),
        heapKbPerSocket: kilobytesPerSocket(idle[i]!.gcHeapKb, loaded[i]!.gcHeapKb, sockets),
      };
    });
    for (const m of memory) {
      log(
        `  push ${config.key}: ${m.node}: ${m.sockets} sockets, ${m.kbPerSocket?.toFixed(1)} KB each after GC (RSS ${(m.idle.gcRssKb / 1024).toFixed(1)} → ${(m.loaded.gcRssKb / 1024).toFixed(1)} MB)`,
      );
    }
    const figure: PushFigure = {
      config: config.label,
      sockets: SOCKETS,
      users: USERS,
      clientProcesses: CLIENT_PROCESSES,
      authenticated,
      failed,
      connectSeconds,
      memory,
      ...(firstError ? { firstError } : {}),
    };
    if (!latency) return figure;

    // What holding the sockets costs without a publish: one ping interval, so every socket's ping and pong.
    const upkeepBefore = pids.map(cpuMillis);
    await sleep(UPKEEP_SECONDS * 1000);
    const upkeep =
      UPKEEP_SECONDS > 0 ? pids.reduce((sum, pid, i) => sum + cpuMillis(pid) - upkeepBefore[i]!, 0) / UPKEEP_SECONDS : null;
    for (const client of clients) client.reset();
    const main = await cpuOfLoad(pids, () => publishLoad(nodes[0]!.base, admin, accounts, SECONDS, 20261127));
    const { load, cpuMillis: cpuUsed } = main;
    const reports = await Promise.all(clients.map((c) => c.report()));
    // The same load with every socket closed (after the measured one: the code is as warm).
    for (const client of clients.splice(0)) await client.close();
    const baseline =
      BASELINE_SECONDS > 0
        ? await cpuOfLoad(pids, () => publishLoad(nodes[0]!.base, admin, accounts, BASELINE_SECONDS, 1))
        : undefined;
    // The no-socket run's CPU per publish (ms), its drain included: subtracted per publish, not per
    // second, since the two runs are not of one length.
    const perPublish = baseline && baseline.load.records.length > 0 ? baseline.cpuMillis / baseline.load.records.length : null;
    const sockets = reports.flatMap((r) => r.sockets);
    const delivered = sockets.reduce((n, s) => n + s.frames.length, 0);
    const summary = summarizeLatency(load.records, sockets, DEBOUNCE_MS);
    figure.latency = {
      ...summary,
      rate: RATE,
      seconds: SECONDS,
      publishErrors: load.errors,
      ...(load.firstError ? { firstPublishError: load.firstError } : {}),
      delivered,
      otherFrames: reports.reduce((n, r) => n + r.otherFrames, 0),
      closedEarly: reports.reduce((n, r) => n + r.closedEarly, 0),
      cpuMillis: cpuUsed,
      cpuMicrosPerMessage: cpuMicrosPerMessage(cpuUsed, delivered),
      baselineCpuMicrosPerPublish: perPublish === null ? null : perPublish * 1000,
      aboveBaselineCpuMicrosPerMessage:
        perPublish === null ? null : cpuMicrosPerMessage(cpuUsed - perPublish * load.records.length, delivered),
      upkeepCpuMillisPerSecond: upkeep,
      deliveryCpuMicrosPerMessage:
        perPublish !== null && upkeep !== null
          ? cpuMicrosPerMessage(cpuUsed - perPublish * load.records.length - upkeep * main.seconds, delivered)
          : null,
      publishResponse: responseTimes(load.records),
      baselinePublishResponse: baseline ? responseTimes(baseline.load.records) : null,
      target: config.nodes === 1 ? TARGET_P99_MS.oneNode : TARGET_P99_MS.twoNodes,
    };
    log(
      `  push ${config.key}: ${summary.publishes} publishes (${load.errors} refused), ${delivered} frames, ` +
        `p50 ${summary.fromAck.p50.toFixed(1)} ms, p99 ${summary.fromAck.p99.toFixed(1)} ms from the acknowledgement, ` +
        `${summary.missing} missing, ${figure.latency.cpuMicrosPerMessage?.toFixed(0)} µs server CPU per message`,
    );
    return figure;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const node of nodes) await node.server.stop().catch(() => undefined);
    if (PROFILE) printProfiles(config.key, nodes.length);
    if (dbName && postgres)
      await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The push scenarios: `sockets` alone measures memory on the one-node configurations; `latency`
 * runs every configuration (memory figures come with it).
 */
export async function runPush(
  postgres: Postgres | undefined,
  want: { sockets: boolean; latency: boolean },
): Promise<PushFigure[]> {
  const configs = ALL_CONFIGS.filter(
    (c) => CONFIGS.includes(c.key) && (c.dialect === "sqlite" || postgres) && (want.latency || c.nodes === 1),
  );
  const maxPerNode = Math.ceil(SOCKETS / Math.min(...configs.map((c) => c.nodes)));
  checkFileLimit(Math.max(maxPerNode, Math.ceil(SOCKETS / CLIENT_PROCESSES)));
  const figures: PushFigure[] = [];
  for (const config of configs) {
    log(
      `  push ${config.key}: ${SOCKETS} sockets over ${USERS} users${want.latency ? `, then ${RATE} publishes/s for ${SECONDS} s` : ""}`,
    );
    figures.push(await runConfig(config, postgres, want.latency));
  }
  return figures;
}
