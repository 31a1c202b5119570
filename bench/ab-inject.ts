/**
 * Alternating builds in one process (issue 17): two Keystream builds (checkouts with their own
 * `dist/`, built beforehand) each get an app over their own storage, driven with Fastify's `inject`
 * (no sockets, so no load generator competes) in alternating batches A B B A A B …; each batch's
 * CPU time of this process (process.cpuUsage: user + system, the database's work included on SQLite)
 * is divided by the requests it answered. On a shared machine a neighbour slows both builds' batches
 * alike, seconds apart; the figure is the median over rounds of B's CPU per request over A's.
 * What it leaves out: HTTP parsing and socket writes (the same code in both builds).
 *
 *   node --import tsx bench/ab-inject.ts <dirA> <dirB> [code|refresh|userinfo] [sqlite|postgres]
 *   AB_ROUNDS (20), AB_BATCH (300 requests), AB_PARALLEL (8 in flight); KEYSTREAM_BENCH_DATABASE_URL for PostgreSQL.
 *
 * Counting system calls instead (deterministic where CPU time is not): `AB_SINGLE=1` runs <dirA>
 * alone, `AB_DRY=1` mints the same artefacts without sending a request; under `strace -f -c`, the
 * difference of the two runs over the requests sent (AB_ROUNDS × AB_BATCH) is per request.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { importFromBuild } from "./lib/build-modules.js";
import { median } from "./lib/load.js";
import { mintGrants } from "./lib/mint.js";
import { adminQuery, databaseUrl } from "./lib/postgres.js";
import { seedBenchAccount } from "./lib/seed.js";

const [dirA, dirB, scenario = "code", dialect = "sqlite"] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error("usage: ab-inject.ts <dirA> <dirB> [code|refresh|userinfo] [sqlite|postgres]");
const ROUNDS = Number(process.env.AB_ROUNDS ?? 20);
const BATCH = Number(process.env.AB_BATCH ?? 300);
const PARALLEL = Number(process.env.AB_PARALLEL ?? 8);
const SINGLE = process.env.AB_SINGLE === "1";
const DRY = process.env.AB_DRY === "1";
const CLIENT = {
  id: "ab-client-0123456789abcdef0123456789abcdef",
  secret: "ab-secret-0123456789abcdef0123456789abcdef",
  redirectUri: "http://127.0.0.1:9/cb",
};
const BASIC = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`;
const TOKEN = "/index.php/apps/oauth2/api/v1/token";
const USERINFO = "/index.php/apps/oauth2/api/v1/userinfo";

async function start(dir: string) {
  const dist = path.join(path.resolve(dir), "dist");
  const { openStorage } = await importFromBuild<any>(dist, "storage/driver/connect.js");
  const { migrateToLatest } = await importFromBuild<any>(dist, "storage/lifecycle/migrate.js");
  const { createServices } = await import(path.join(dist, "services.js"));
  const { buildApp } = await import(path.join(dist, "app.js"));
  const { logOptions } = await import(path.join(dist, "observability/logging.js"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-ab-"));
  const admin = process.env.KEYSTREAM_BENCH_DATABASE_URL;
  let url: string | undefined;
  let dbName: string | undefined;
  if (dialect === "postgres") {
    if (!admin) throw new Error("KEYSTREAM_BENCH_DATABASE_URL is needed for PostgreSQL");
    dbName = `ks_ab_${randomBytes(5).toString("hex")}`;
    await adminQuery(admin, `CREATE DATABASE ${dbName}`);
    url = databaseUrl(admin, dbName);
  }
  const storage = openStorage({ databaseUrl: url, dataDir });
  await migrateToLatest(storage);
  // The access log as in production (info, JSON, batched writes), into /dev/null.
  const log = pino(logOptions("info"), pino.destination({ dest: "/dev/null", sync: false, minLength: 4096 }));
  const services = createServices({ storage, dataDir, log });
  const clientInternalId = await seedBenchAccount(services, storage.db, {
    uid: "ab-user",
    displayName: "AB",
    email: "ab@example.com",
    clientName: "AB client",
    client: CLIENT,
  });
  const app = await buildApp({ services });
  await app.ready();
  return {
    app,
    mint: (kind: "code" | "refresh" | "access", n: number) =>
      mintGrants(storage.db, { clientInternalId, uid: "ab-user", redirectUri: CLIENT.redirectUri }, kind, n),
    async stop() {
      await app.close();
      await storage.close();
      if (dbName && admin) await adminQuery(admin, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Build = Awaited<ReturnType<typeof start>>;

/** One batch: its artefacts minted first (not counted), then BATCH requests, PARALLEL in flight. */
async function batch(build: Build, refreshPool: string[], accessToken: string): Promise<{ cpu: number; ok: number }> {
  const codes = scenario === "code" ? await build.mint("code", BATCH) : [];
  const redirect = encodeURIComponent(CLIENT.redirectUri);
  const request = (i: number) => {
    if (scenario === "userinfo")
      return build.app.inject({ method: "GET", url: USERINFO, headers: { authorization: `Bearer ${accessToken}` } });
    const payload =
      scenario === "code"
        ? `grant_type=authorization_code&code=${codes[i]}&redirect_uri=${redirect}`
        : `grant_type=refresh_token&refresh_token=${refreshPool.shift()}`;
    return build.app.inject({
      method: "POST",
      url: TOKEN,
      payload,
      headers: { authorization: BASIC, "content-type": "application/x-www-form-urlencoded" },
    });
  };
  if (DRY) return { cpu: 0, ok: 0 };
  let next = 0;
  let ok = 0;
  const started = process.cpuUsage();
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < BATCH) {
        const response = await request(next++);
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
        ok++;
        if (scenario === "refresh") refreshPool.push((JSON.parse(response.body) as { refresh_token: string }).refresh_token);
      }
    }),
  );
  const used = process.cpuUsage(started);
  return { cpu: (used.user + used.system) / ok, ok };
}

async function single() {
  const build = await start(dirA!);
  const pool = await build.mint("refresh", PARALLEL * 4);
  const [access] = await build.mint("access", 1);
  try {
    for (let round = 0; round < ROUNDS; round++) await batch(build, pool, access!);
  } finally {
    await build.stop();
  }
}

async function main() {
  if (SINGLE) return single();
  const builds = [await start(dirA!), await start(dirB!)];
  const pools = [await builds[0]!.mint("refresh", PARALLEL * 4), await builds[1]!.mint("refresh", PARALLEL * 4)];
  const access = [(await builds[0]!.mint("access", 1))[0]!, (await builds[1]!.mint("access", 1))[0]!];
  const cpu: number[][] = [[], []];
  try {
    for (const i of [0, 1, 0, 1]) await batch(builds[i]!, pools[i]!, access[i]!); // warm-up (JIT)
    for (let round = 0; round < ROUNDS; round++) {
      for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) cpu[i]!.push((await batch(builds[i]!, pools[i]!, access[i]!)).cpu);
    }
  } finally {
    for (const b of builds) await b.stop();
  }
  const ratios = cpu[1]!.map((b, k) => b / cpu[0]![k]!);
  process.stdout.write(
    `${scenario} ${dialect}: A ${median(cpu[0]!).toFixed(1)} µs CPU/request, B ${median(cpu[1]!).toFixed(1)} µs; ` +
      `B/A per round, median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}, ${ratios.length} rounds)\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
