/**
 * The servers under load: Keystream nodes (seeded, on either database), panva's oidc-provider
 * peer, and the fixed-body references (the node:http ceiling and the Fastify floor).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { NewActivity } from "../../src/activity/ports.js";
import { createServices } from "../../src/services.js";
import { openStorage } from "../../src/storage/driver/connect.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { row } from "../activity-paging.js";
import { runLoad } from "./load.js";
import type { Contender } from "./measure.js";
import { mintGrants } from "./mint.js";
import { adminQuery, databaseUrl, type Postgres } from "./postgres.js";
import { freePort, type RunningServer, startServer } from "./processes.js";
import { seedBenchAccount } from "./seed.js";
import {
  ACTIVITY_ROWS,
  BENCH_USER,
  CLIENT,
  CONNECTIONS,
  LOG_LEVEL,
  PROFILE,
  PROFILE_DIR,
  ROOT,
  serverCommand,
} from "./settings.js";

export interface Target {
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

export async function startKeystream(
  dialect: "sqlite" | "postgres",
  postgres: Postgres | undefined,
  extraEnv: NodeJS.ProcessEnv = {},
  /** Another build's dist/ (bench/ab-process.ts), and the suffix of its name. */
  build: { dist: string; label: string } = { dist: path.join(ROOT, "dist"), label: "" },
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
  const clientInternalId = await seedBenchAccount(services, storage.db, {
    uid: BENCH_USER,
    displayName: "Bench User",
    email: "bench@example.com",
    clientName: "Bench client",
    client: CLIENT,
  });
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
    path.join(build.dist, "main.js"),
  ]);
  // A port chosen here: at LOG_LEVEL=warn Keystream does not log the one it took.
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { KEYSTREAM_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: LOG_LEVEL };
  env.KEYSTREAM_DATABASE_URL = url ?? "";
  Object.assign(env, extraEnv);
  const server = await startServer(command, args, env, { stdoutFile: path.join(dataDir, "keystream.log"), port });
  return {
    name: `${dialect === "sqlite" ? "Keystream SQLite" : "Keystream PostgreSQL"}${build.label}`,
    base: `http://127.0.0.1:${server.port}`,
    tokenPath: "/index.php/apps/oauth2/api/v1/token",
    userinfoPath: "/index.php/apps/oauth2/api/v1/userinfo",
    activityPath: "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=50",
    mint: (kind, n) => mintGrants(storage.db, { clientInternalId, uid: BENCH_USER, redirectUri: CLIENT.redirectUri }, kind, n),
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

export async function startPeer(): Promise<Target> {
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
export const CEILING = "node:http (ceiling)";
/** Fastify alone, answering the ceiling's body: what the framework costs before any work. */
export const FASTIFY_FLOOR = "Fastify alone (fixed JSON)";
/** Keystream's cheapest answer (status.php: no database, no authentication) on the SQLite node, access log on. */
export const KEYSTREAM_FLOOR = "Keystream status.php (floor)";
/** The token endpoint's reference. */
export const PEER = "oidc-provider";

export async function startBare(file: "bare-node.ts" | "bare-fastify.ts"): Promise<RunningServer> {
  const [command, args] = serverCommand(["--import", "tsx", path.join(ROOT, "bench", "servers", file)]);
  return startServer(command, args, { PORT: "0" });
}

/** A server answering its fixed body on `/`, loaded as it is (the ceiling, the Fastify floor). */
export function fixedBodyContender(name: string, server: RunningServer, urlPath = "/"): Contender {
  return {
    name,
    pid: server.child.pid,
    run: (seconds) =>
      runLoad({ url: `http://127.0.0.1:${server.port}${urlPath}`, connections: CONNECTIONS, durationSeconds: seconds }),
  };
}

/** One request before the load: a server that refuses it would only measure its error path. */
export async function probe(url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`probe ${url}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
}
