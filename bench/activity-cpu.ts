/**
 * CPU per activity page in-process (issue 17): one build's app, driven with `app.inject` (bearer,
 * limit 50), timed with process.cpuUsage. For paired A/B comparisons of two builds on this busy
 * machine: run it alternately on each build's dist/ (a copy of the other build under the worktree,
 * e.g. `.tmp/before/dist`, resolves the same node_modules). It also prints a digest of the answers
 * to a varied stream (grouping, collections, messages, escaping, federated ids, unknown subjects,
 * previews; each asked twice, the second from the caches), so that two builds can be shown to
 * answer byte for byte the same.
 *
 *   node --import tsx bench/activity-cpu.ts [dist dir (dist)] [requests (2000)]
 *   KEYSTREAM_TEST_DATABASE_URL=postgres://… node --import tsx bench/activity-cpu.ts   # on PostgreSQL
 *   BENCH_CPU_PROFILE=page.cpuprofile node --import tsx bench/activity-cpu.ts   # profile of the timed requests only
 *   (then: node --import tsx bench/lib/profile.ts page.cpuprofile 40)
 *
 * Instructions instead of CPU time (steady on a loaded machine): run it under callgrind with
 * instrumentation off at start; BENCH_CALLGRIND=1 turns it on for the timed requests only.
 *   BENCH_CALLGRIND=1 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=cg.out \
 *     node --import tsx bench/activity-cpu.ts dist 200   # then: callgrind_annotate cg.out | head
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { buildApp as BuildApp } from "../src/app.js";
import type { createServices as CreateServices } from "../src/services.js";
import type { openStorage as OpenStorage } from "../src/storage/driver/connect.js";
import type { migrateToLatest as MigrateToLatest } from "../src/storage/lifecycle/migrate.js";
import { row } from "./activity-paging.js";
import { importFromBuild } from "./lib/build-modules.js";
import { mintGrants } from "./lib/mint.js";
import { adminQuery, databaseUrl } from "./lib/postgres.js";
import { createBenchUser } from "./lib/seed.js";

const DIST = path.resolve(process.argv[2] ?? "dist");
const REQUESTS = Number(process.argv[3] ?? 2000);
const ADMIN_URL = process.env.KEYSTREAM_TEST_DATABASE_URL;
const USER = "bench-user";
const MIXED = "mixed-user";
/** Fixed times, so that two builds' answers can be compared byte for byte. */
const START = 1_790_000_000;

/** A stream exercising every rendering path (what the digest covers). */
function mixedEvents(): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const file = (i: number) => ({ type: "file", value: `/a <b> & "c"/f'${i}.txt`, id: 100 + i });
  for (let i = 0; i < 4; i++) {
    // Groups: one author, one subject, one varying parameter.
    events.push({
      app: "files",
      type: "file_changed",
      affecteduser: MIXED,
      user: "alice",
      subject: "changed_by",
      subjectparams: [file(i), { type: "user", value: "alice" }],
      object_type: "files",
      object_id: 100 + i,
      object_name: `/f${i}.txt`,
      datetime: START + i,
    });
  }
  events.push(
    {
      app: "files_sharing",
      type: "shared",
      affecteduser: MIXED,
      user: "bob@cloud.example.com",
      subject: "remote_share_received",
      subjectparams: [file(9), { type: "federated-cloud-id", value: "bob@cloud.example.com" }],
      message: "Note {0} from {1} and {x}",
      messageparams: [
        { type: "parameter", value: "<hi>" },
        { type: "user", value: "" },
      ],
      link: "https://example.com/x?a=1&b=2",
      object_type: "files",
      object_id: 0,
      object_name: "",
      datetime: START + 10,
    },
    {
      app: "custom",
      type: "custom_type",
      affecteduser: MIXED,
      user: MIXED,
      subject: "Deployed {0} to {1}",
      subjectparams: [
        { type: "parameter", value: "v1.2" },
        {
          type: "collection",
          value: [
            { type: "parameter", value: "eu" },
            { type: "parameter", value: "us" },
          ],
        },
      ],
      object_type: "deploy",
      object_id: 0,
      object_name: "zero",
      datetime: START + 11,
    },
    {
      app: "oauth2",
      type: "security",
      affecteduser: MIXED,
      user: MIXED,
      subject: "client_authorized",
      subjectparams: [{ type: "parameter", value: "Desktop Client" }],
      datetime: START + 12,
    },
    {
      app: "files",
      type: "file_created",
      affecteduser: MIXED,
      user: "",
      subject: "created_public",
      subjectparams: [{ type: "file", value: "/" }],
      object_type: "files",
      object_id: 4294967296,
      object_name: "/",
      datetime: START + 13,
    },
  );
  return events;
}

async function main(): Promise<void> {
  const load = <T>(module: string): Promise<T> => importFromBuild<T>(DIST, module);
  const { openStorage } = await load<{ openStorage: typeof OpenStorage }>("storage/driver/connect.js");
  const { migrateToLatest } = await load<{ migrateToLatest: typeof MigrateToLatest }>("storage/lifecycle/migrate.js");
  const { createServices } = await load<{ createServices: typeof CreateServices }>("services.js");
  const { buildApp } = await load<{ buildApp: typeof BuildApp }>("app.js");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-activity-cpu-"));
  const dbName = ADMIN_URL ? `ks_activity_cpu_${randomBytes(5).toString("hex")}` : undefined;
  if (ADMIN_URL && dbName) await adminQuery(ADMIN_URL, `CREATE DATABASE ${dbName}`);
  const storage = openStorage({ dataDir, databaseUrl: ADMIN_URL && dbName ? databaseUrl(ADMIN_URL, dbName) : undefined });
  try {
    await migrateToLatest(storage);
    // The production logger's level and format (one access-log line per request), written nowhere.
    const log = pino({ level: "info" }, fs.createWriteStream("/dev/null"));
    const services = createServices({ storage, dataDir, log });
    for (const uid of [USER, MIXED, "alice"]) {
      await createBenchUser(services, { uid, password: randomBytes(12).toString("hex"), displayName: `${uid} <&>` });
    }
    const added = await services.oauth.clients.add({
      name: "CPU bench",
      clientId: "activity-cpu-client-0123456789abcdef",
      secret: "activity-cpu-secret-0123456789abcdef0123",
      redirectUri: "http://127.0.0.1:9/cb",
      allowSubdomains: "false",
      trusted: "false",
      forceTrust: "true",
    });
    if (!added.ok) throw new Error(added.message);
    const client = await storage.db.selectFrom("oauth2_clients").select("id").executeTakeFirstOrThrow();
    const mint = (uid: string) =>
      mintGrants(storage.db, { clientInternalId: Number(client.id), uid, redirectUri: "http://127.0.0.1:9/cb" }, "access", 1);
    await services.activity.store.insertAll(Array.from({ length: 2000 }, (_, i) => ({ ...row(USER, i), timestamp: START + i })));
    const published = await services.activity.publish(mixedEvents());
    if (!published.ok) throw new Error(JSON.stringify(published.error));

    const app = await buildApp({ services });
    await app.ready();
    const [token] = await mint(USER);
    const [mixedToken] = await mint(MIXED);
    const url = "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=50";
    const get = async (target: string, bearer: string) => {
      const response = await app.inject({ method: "GET", url: target, headers: { authorization: `Bearer ${bearer}` } });
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body.slice(0, 200)}`);
      return response;
    };
    // What the two builds must answer alike: bodies and the headers a client reads.
    const digest = createHash("sha256");
    const answers = [
      `${url}`,
      "/ocs/v2.php/apps/activity/api/v2/activity/all?format=xml&limit=5",
      "/index.php/apps/activity/api/v2/activity/self?format=json&limit=3&sort=asc",
      "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&limit=2",
      "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json&previews=true&limit=50",
    ];
    // Each twice: the second answer may come from the caches the first filled.
    for (const [target, bearer] of [
      ...answers.flatMap((a) => [[a, mixedToken!] as const, [a, mixedToken!] as const]),
      [`${url.replace("limit=50", "limit=7")}`, token!] as const,
    ]) {
      const response = await get(target, bearer);
      const headers = ["content-type", "etag", "link", "x-activity-first-known", "x-activity-last-given"].map(
        (h) => `${h}: ${response.headers[h] ?? ""}`,
      );
      digest.update(`${target}\n${headers.join("\n")}\n${response.body}\n`);
    }
    for (let i = 0; i < 200; i++) await get(url, token!);
    const profileFile = process.env.BENCH_CPU_PROFILE;
    const session = profileFile ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    }
    const callgrind = (on: boolean) =>
      process.env.BENCH_CALLGRIND === "1" &&
      execFileSync("callgrind_control", ["-i", on ? "on" : "off", String(process.pid)], { stdio: "ignore" });
    callgrind(true);
    const before = process.cpuUsage();
    const wallStarted = performance.now();
    for (let i = 0; i < REQUESTS; i++) await get(url, token!);
    const used = process.cpuUsage(before);
    const wall = performance.now() - wallStarted;
    callgrind(false);
    if (session && profileFile) {
      const { profile } = await session.post("Profiler.stop");
      fs.writeFileSync(profileFile, JSON.stringify(profile));
      session.disconnect();
    }
    process.stdout.write(
      `${JSON.stringify({
        dist: path.relative(process.cwd(), DIST) || ".",
        dialect: storage.dialect,
        requests: REQUESTS,
        cpuMicrosPerPage: Math.round((used.user + used.system) / REQUESTS),
        wallMicrosPerPage: Math.round((wall * 1000) / REQUESTS),
        answersDigest: digest.digest("hex").slice(0, 16),
      })}\n`,
    );
    await app.close();
  } finally {
    await storage.close();
    if (ADMIN_URL && dbName) await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
