/**
 * Activity stream paging benchmark (issue 4): one user with 1M activities among 100 users, next
 * to the same user with 10k, and the page latency (p50/p99, through the HTTP stack with
 * app.inject and a session cookie) for `all`, `self`, `filter` (object) and `since` deep in the
 * stream. Keyset paging should keep the 1M/10k ratio near 1.
 *
 *   node --import tsx bench/activity-paging.ts            # 10k and 1M (SQLite temp file)
 *   BENCH_ROWS=10000,200000 node --import tsx bench/activity-paging.ts
 *   KEYSTREAM_TEST_DATABASE_URL=postgres://… node --import tsx bench/activity-paging.ts   # on PostgreSQL
 *
 * Prints a table and writes JSON to bench/results/. Not part of `npm test`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pino from "pino";
import { categoryOf } from "../src/activity/domain/filters.js";
import type { NewActivity } from "../src/activity/ports.js";
import { buildApp } from "../src/app.js";
import { ManualClock } from "../src/clock.js";
import { HostSettings } from "../src/config/host-settings.js";
import { createServices } from "../src/services.js";
import type { Storage } from "../src/storage/driver/connect.js";
import type { Db } from "../src/storage/driver/database.js";
import { SqlActivityStore } from "../src/storage/stores/activity/activity-store.js";
import { createTestStorage, testDatabaseDialect } from "../test/support/storage.js";

const USERS = 100;
const OTHER_ROWS_PER_USER = 1_000;
const OBJECTS = 1_000;
/** How many `since` positions and filtered objects the cases cycle through, at every scale. */
const SINCE_CANDIDATES = 1_000;
const FILTERED_OBJECTS = 50;
const TX_ROWS = 50_000;
const WARMUP = 20;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const SCALES = (process.env.BENCH_ROWS ?? "10000,1000000").split(",").map(Number);
const TARGET = "user000";
const START = 1_700_000_000;

const TYPES: Array<[app: string, type: string, subject: string]> = [
  ["files", "file_changed", "changed"],
  ["files", "file_created", "created"],
  ["files", "file_deleted", "deleted"],
  ["files_sharing", "shared", "shared_with_by"],
  ["oauth2", "security", "client_authorized"],
];

export function row(uid: string, i: number): NewActivity {
  const [app, type, subject] = TYPES[i % TYPES.length]!;
  const self = i % 2 === 0;
  const author = self ? uid : "user001";
  const objectId = (i % OBJECTS) + 1;
  const fileSubject = app === "files" ? `${subject}_${self ? "self" : "by"}` : subject;
  return {
    // Several activities per second, and a few published out of order (older timestamp, newer id).
    timestamp: START + Math.floor(i / 3) - (i % 97 === 0 ? 5 : 0),
    app,
    type,
    user: author,
    affecteduser: uid,
    is_self: self ? 1 : 0,
    category: categoryOf(app, type),
    subject: fileSubject,
    subjectparams: JSON.stringify(
      self
        ? [{ type: "file", value: `/dir${objectId % 10}/file${objectId}.txt`, id: objectId }]
        : [
            { type: "file", value: `/dir${objectId % 10}/file${objectId}.txt`, id: objectId },
            { type: "user", value: author },
          ],
    ),
    message: "",
    messageparams: "[]",
    link: "",
    object_type: "files",
    object_id: objectId,
    object_name: `/dir${objectId % 10}/file${objectId}.txt`,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface CaseResult {
  p50: number;
  p99: number;
  rowsPerPage: number;
}

/** Users user000…user099, then `targetRows` activities for user000 interleaved with 99 000 of the others'. */
export async function fillActivities(
  db: Db,
  targetRows: number,
  insertBatch: (db: Db, rows: NewActivity[]) => Promise<void> = async (db, rows) => {
    const store = new SqlActivityStore(db);
    await db.transaction().execute((trx) => store.insertRows(trx, rows));
  },
): Promise<number> {
  const uids = Array.from({ length: USERS }, (_, i) => `user${String(i).padStart(3, "0")}`);
  await db
    .insertInto("users")
    .values(uids.map((uid) => ({ uid, display_name: uid, email: null, password_hash: null, enabled: 1, created_at: 0 })))
    .execute();
  const fillStarted = performance.now();
  // The target's rows interleaved with everyone else's, in transactions of TX_ROWS rows.
  const others = uids.slice(1);
  const othersTotal = others.length * OTHER_ROWS_PER_USER;
  const total = targetRows + othersTotal;
  let written = 0;
  let targetI = 0;
  let otherI = 0;
  while (written < total) {
    const batch: NewActivity[] = [];
    while (batch.length < TX_ROWS && written + batch.length < total) {
      const n = written + batch.length;
      // Spread the others' rows evenly through the target's (Bresenham on the two counts).
      const otherTurn = otherI < othersTotal && ((otherI + 1) * total <= (n + 1) * othersTotal || targetI >= targetRows);
      if (otherTurn) {
        batch.push(row(others[otherI % others.length]!, Math.floor(otherI / others.length) + otherI));
        otherI++;
      } else {
        batch.push(row(TARGET, targetI++));
      }
    }
    await insertBatch(db, batch);
    written += batch.length;
  }
  return (performance.now() - fillStarted) / 1000;
}

/** Page latency per case through the whole HTTP stack (app.inject, session cookie) on a filled database. */
export async function measurePaging(
  storage: Storage,
  dataDir: string,
  targetRows: number,
  iterations = ITERATIONS,
): Promise<Record<string, CaseResult>> {
  const db = storage.db;
  const services = createServices({
    storage,
    dataDir,
    clock: new ManualClock(START + targetRows),
    settings: new HostSettings(dataDir),
    log: pino({ level: "silent" }),
  });
  const app = await buildApp({ services, sleep: async () => {} });
  await app.ready();
  const session = await services.sessions.start(TARGET);
  const cookie = `ks_session=${session.token}`;

  // `since` candidates deep in the stream: SINCE_CANDIDATES consecutive ids 90% of the way down, the
  // same number at every scale. The pages they start cover the same number of distinct rows at 10k
  // and at 1M, so the activity caches (row cache, element cache) behave alike at both scales and the
  // ratio shows what the table's size costs (until 2026-11-24 the candidates were the whole oldest
  // tenth but one: 1,000 ids at 10k, 100,000 at 1M, so the 1M pages were cold and the 10k ones warm).
  const deep = await db
    .selectFrom("activity")
    .select("activity_id")
    .where("affecteduser", "=", TARGET)
    .orderBy("timestamp", "asc")
    .orderBy("activity_id", "asc")
    .offset(Math.floor(targetRows / 10))
    .limit(SINCE_CANDIDATES)
    .execute();
  const pick = (i: number) => deep[(i * 7919) % deep.length]!.activity_id;

  const base = "/ocs/v2.php/apps/activity/api/v2/activity";
  const cases: Record<string, (i: number) => string> = {
    all: () => `${base}/all?format=json&limit=50`,
    self: () => `${base}/self?format=json&limit=50`,
    // The same FILTERED_OBJECTS objects at every scale, for the same reason as `since` (their pages
    // hold 10 rows at 10k, 50 at 1M: each object has one row in OBJECTS of the user's).
    filter: (i) => `${base}/filter?format=json&limit=50&object_type=files&object_id=${(i % FILTERED_OBJECTS) + 1}`,
    since: (i) => `${base}/all?format=json&limit=50&since=${pick(i)}`,
    "since asc": (i) => `${base}/all?format=json&limit=50&sort=asc&since=${pick(i)}`,
  };
  const results: Record<string, CaseResult> = {};
  try {
    for (const [name, url] of Object.entries(cases)) {
      const times: number[] = [];
      let rowsPerPage = 0;
      for (let i = 0; i < WARMUP + iterations; i++) {
        const started = performance.now();
        const response = await app.inject({ method: "GET", url: url(i), headers: { cookie } });
        const elapsed = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`${name}: HTTP ${response.statusCode} for ${url(i)}`);
        if (i >= WARMUP) times.push(elapsed);
        if (i === WARMUP) {
          const data = JSON.parse(response.body).ocs.data as Array<{ activity_ids: number[] }>;
          rowsPerPage = data.reduce((n, e) => n + e.activity_ids.length, 0);
        }
      }
      times.sort((a, b) => a - b);
      results[name] = { p50: percentile(times, 50), p99: percentile(times, 99), rowsPerPage };
    }
  } finally {
    await services.sessions.end(session.token);
    await app.close();
  }
  return results;
}

async function runScale(targetRows: number): Promise<{ rows: number; fillSeconds: number; cases: Record<string, CaseResult> }> {
  const storage = await createTestStorage();
  try {
    const fillSeconds = await fillActivities(storage.storage.db, targetRows);
    const cases = await measurePaging(storage.storage, storage.dataDir, targetRows);
    return { rows: targetRows, fillSeconds, cases };
  } finally {
    await storage.cleanup();
  }
}

async function main(): Promise<void> {
  const runs = [];
  for (const rows of SCALES) {
    process.stderr.write(
      `filling ${rows.toLocaleString("en")} activities for ${TARGET} (+${(USERS - 1) * OTHER_ROWS_PER_USER} for 99 others)…\n`,
    );
    const run = await runScale(rows);
    process.stderr.write(
      `  filled in ${run.fillSeconds.toFixed(1)} s (${Math.round((rows + 99_000) / run.fillSeconds).toLocaleString("en")} rows/s)\n`,
    );
    runs.push(run);
  }
  const small = runs[0]!;
  const large = runs.at(-1)!;
  const fmt = (n: number) => n.toFixed(2).padStart(8);
  const lines = [
    `dialect ${testDatabaseDialect}, page limit 50, ${ITERATIONS} requests per case (after ${WARMUP} warm-up), latency in ms through HTTP (app.inject)`,
    `${"case".padEnd(10)} | ${`p50 @${small.rows}`.padStart(12)} | ${`p99 @${small.rows}`.padStart(12)} | ${`p50 @${large.rows}`.padStart(12)} | ${`p99 @${large.rows}`.padStart(12)} | p50 ratio | p99 ratio`,
    `${"-".repeat(10)}-+-${"-".repeat(12)}-+-${"-".repeat(12)}-+-${"-".repeat(12)}-+-${"-".repeat(12)}-+-----------+----------`,
  ];
  for (const name of Object.keys(small.cases)) {
    const a = small.cases[name]!;
    const b = large.cases[name]!;
    lines.push(
      `${name.padEnd(10)} | ${fmt(a.p50).padStart(12)} | ${fmt(a.p99).padStart(12)} | ${fmt(b.p50).padStart(12)} | ${fmt(b.p99).padStart(12)} | ${(b.p50 / a.p50).toFixed(2).padStart(9)} | ${(b.p99 / a.p99).toFixed(2).padStart(8)}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `activity-paging-${testDatabaseDialect}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ dialect: testDatabaseDialect, iterations: ITERATIONS, limit: 50, users: USERS, runs, node: process.version }, null, 2)}\n`,
  );
  process.stdout.write(`results written to ${path.relative(process.cwd(), file)}\n`);
}

// Run as a script; bench/run.ts imports the functions above.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
