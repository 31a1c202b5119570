/**
 * Activity paging latency at 10k and 1M rows (bench/activity-paging.ts's measurement, through the
 * HTTP stack with app.inject): p99 must stay flat as the stream grows. Runs after the throughput
 * scenarios, once their servers are stopped.
 */

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import type { Db } from "../../src/storage/driver/database.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { type CaseResult, fillActivities, measurePaging } from "../activity-paging.js";
import { adminQuery, databaseUrl, type Postgres } from "../lib/postgres.js";
import type { Line } from "../lib/report.js";
import { log, PAGING_ITERATIONS, PAGING_ROWS, RESULTS } from "../lib/settings.js";

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface PagingRun {
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

export async function runPaging(dialect: "sqlite" | "postgres", postgres: Postgres | undefined): Promise<PagingRun[]> {
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

/** The table's lines: each larger data set's p50/p99 over the smallest's, per dialect and case. */
export function pagingLines(paging: PagingRun[]): Line[] {
  const lines: Line[] = [];
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
  return lines;
}
