import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { adminQuery, CLIENT, Deployment, freePort, ROOT, USER } from "./lib/deployment.js";
import { basic, exchange, FORM, sleep } from "./lib/http.js";
import { log, Report } from "./lib/report.js";
import type { ScenarioContext } from "./lib/scenario.js";

/** The target of issue 16: the first request after the database is back succeeds within this. */
const RECOVERY_TARGET_MS = 1000;
const WORKERS = 4;

interface Outcome {
  startedAt: number;
  endedAt: number;
  status: number | undefined;
}

/**
 * A throw-away PostgreSQL cluster of the scenario's own (scripts/dev-postgres.sh on a free port and
 * directory), so stopping it disturbs nobody else's.
 */
class OwnCluster {
  readonly port: number;
  readonly dir = path.join(os.tmpdir(), `chaos-pg-${randomBytes(4).toString("hex")}`);
  constructor(port: number) {
    this.port = port;
  }
  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
  script(command: "start" | "stop"): void {
    const result = spawnSync(path.join(ROOT, "scripts", "dev-postgres.sh"), [command], {
      env: { ...process.env, KEYSTREAM_PG_PORT: String(this.port), KEYSTREAM_PG_DIR: this.dir },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`dev-postgres.sh ${command}: ${result.stderr || result.stdout}`);
  }
  /** Stops the server but keeps the data (the script's stop deletes it): pg_ctl stop -m fast. */
  stopKeepingData(): void {
    const bindir = fs
      .readdirSync("/usr/lib/postgresql")
      .sort((a, b) => Number(a) - Number(b))
      .map((v) => `/usr/lib/postgresql/${v}/bin`)
      .at(-1);
    const pgCtl = [`${bindir}/pg_ctl`, "-D", path.join(this.dir, "data"), "-m", "fast", "-w", "stop"];
    const [command, args] =
      process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", ...pgCtl]] : [pgCtl[0]!, pgCtl.slice(1)];
    const result = spawnSync(command, args, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`pg_ctl stop: ${result.stderr || result.stdout}`);
  }
}

/**
 * PostgreSQL outage under load: first every backend of the database is terminated again and again
 * for some seconds, then the cluster is stopped and started. Measured: the time from the database
 * being back to the first successful request (target ≤ 1 s), and answers by kind; asserted: no
 * 5xx other than 503 (an outage is "unavailable, retry", not a server error) and the process
 * survives.
 */
export async function postgresOutage(context: ScenarioContext): Promise<Report> {
  const report = new Report("PostgreSQL outage (own cluster)");
  const cluster = new OwnCluster(await freePort());
  cluster.script("start");
  let deployment: Deployment | undefined;
  try {
    deployment = await Deployment.create("postgres", cluster.adminUrl);
    await run(deployment, cluster, context.durationSeconds, report);
  } finally {
    try {
      cluster.script("start"); // dropping the database needs it up, whatever happened
      await deployment?.cleanup();
    } finally {
      cluster.script("stop");
    }
  }
  return report;
}

async function run(deployment: Deployment, cluster: OwnCluster, seconds: number, report: Report): Promise<void> {
  const [code] = await deployment.mint("code", 1);
  await deployment.closeStorage();
  await deployment.start();
  const base = deployment.base;
  const token = await exchange(`${base}/index.php/apps/oauth2/api/v1/token`, {
    method: "POST",
    headers: { authorization: basic(CLIENT.id, CLIENT.secret), "content-type": FORM },
    body: `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(CLIENT.redirect)}`,
  });
  if (!token.answered || token.status !== 200) throw new Error("no access token for the scenario");
  const bearer = `Bearer ${(JSON.parse(token.body) as { access_token: string }).access_token}`;
  const outcomes: Outcome[] = [];
  let stop = false;
  let n = 0;
  const worker = async () => {
    while (!stop) {
      n += 1;
      const startedAt = performance.now();
      const answer =
        n % 3 === 0
          ? await exchange(`${base}/index.php/apps/activity/api/v2/events`, {
              method: "POST",
              headers: { authorization: deployment.adminAuthorization, "content-type": "application/json" },
              body: JSON.stringify({ app: "files", type: "file_changed", affecteduser: USER, subject: "changed_self" }),
            })
          : await exchange(`${base}/index.php/apps/oauth2/api/v1/userinfo`, { headers: { authorization: bearer } }, 5000);
      outcomes.push({ startedAt, endedAt: performance.now(), status: answer.answered ? answer.status : undefined });
      await sleep(answer.answered && answer.status < 500 ? 10 : 50);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  const phaseSeconds = Math.max(3, seconds / 6);
  await sleep(2000);

  // Phase 1: pg_terminate_backend on every connection of the database, every 100 ms.
  const dbName = new URL(deployment.databaseUrl!).pathname.slice(1);
  const terminateFrom = performance.now();
  let terminated = 0;
  while (performance.now() - terminateFrom < phaseSeconds * 1000) {
    const { rows } = await adminQuery(
      cluster.adminUrl,
      "select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [dbName],
    );
    terminated += Number(rows[0].n);
    await sleep(100);
  }
  const backAfterTerminations = performance.now();
  const recoveryTerminations = await recovery(outcomes, backAfterTerminations, () => deployment.alive);
  log(`    terminations over; recovery ${recoveryTerminations ?? "never"} ms`);
  const crashes: string[] = [];
  // A crashed server is counted and started again, so the second phase is still measured.
  const survived = async () => {
    if (deployment.alive) return;
    crashes.push(crashLine(deployment.logTail(100_000)));
    await deployment.start();
  };
  await survived();
  await sleep(2000);

  // Phase 2: the cluster stopped (fast shutdown) and started again.
  const down = performance.now();
  cluster.stopKeepingData();
  await sleep(phaseSeconds * 1000);
  cluster.script("start");
  const backAfterRestart = performance.now();
  const stoppedFor = backAfterRestart - down;
  const recoveryRestart = await recovery(outcomes, backAfterRestart, () => deployment.alive);
  log(`    cluster restarted; recovery ${recoveryRestart ?? "never"} ms`);
  await survived();
  await sleep(2000);
  stop = true;
  await Promise.all(workers);

  const count = (from: number, to: number, test: (o: Outcome) => boolean) =>
    outcomes.filter((o) => o.endedAt >= from && o.endedAt < to && test(o)).length;
  const describe = (from: number, to: number) =>
    `2xx ${count(from, to, (o) => o.status !== undefined && o.status < 300)}, 503 ${count(from, to, (o) => o.status === 503)}, other 5xx ${count(from, to, (o) => o.status !== undefined && o.status >= 500 && o.status !== 503)}, no answer ${count(from, to, (o) => o.status === undefined)}`;
  report.figure("backends terminated", terminated);
  report.figure("answers during the terminations", describe(terminateFrom, backAfterTerminations));
  report.figure(
    "recovery after the terminations",
    recoveryTerminations ?? "never",
    recoveryTerminations === undefined ? "" : "ms",
  );
  report.figure("cluster down for", Math.round(stoppedFor), "ms");
  report.figure("answers from the stop to the end", describe(backAfterTerminations, Number.POSITIVE_INFINITY));
  report.figure("recovery after the restart", recoveryRestart ?? "never", recoveryRestart === undefined ? "" : "ms");
  const other5xx = outcomes.filter((o) => o.status !== undefined && o.status >= 500 && o.status !== 503).length;
  report.check("the server process survives the outage", crashes.length === 0, crashes.map((c) => `crashed: ${c}`).join("; "));
  report.check("no 5xx other than 503", other5xx === 0, `${other5xx}`);
  report.check(
    `recovery after the terminations ≤ ${RECOVERY_TARGET_MS} ms`,
    recoveryTerminations !== undefined && recoveryTerminations <= RECOVERY_TARGET_MS,
  );
  report.check(
    `recovery after the cluster restart ≤ ${RECOVERY_TARGET_MS} ms`,
    recoveryRestart !== undefined && recoveryRestart <= RECOVERY_TARGET_MS,
  );
}

/** Waits (≤ 30 s) for a 2xx answered after `back`; returns how long after `back` it came. */
async function recovery(outcomes: Outcome[], back: number, alive: () => boolean): Promise<number | undefined> {
  const deadline = back + 30_000;
  while (performance.now() < deadline && alive()) {
    const first = outcomes.find((o) => o.endedAt >= back && o.status !== undefined && o.status < 300);
    if (first) return Math.round(first.endedAt - back);
    await sleep(20);
  }
  return undefined;
}

/** The line of a crashed server's output that says why. */
function crashLine(output: string): string {
  const lines = output.split("\n");
  return (lines.find((l) => /^(error|[A-Z]\w*Error):/.test(l.trim())) ?? lines.filter(Boolean).at(-1) ?? "").trim().slice(0, 160);
}
