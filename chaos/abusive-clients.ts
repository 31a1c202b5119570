import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import autocannon from "autocannon";
import { CLIENT, Deployment } from "./lib/deployment.js";
import { basic, exchange, FORM, sleep } from "./lib/http.js";
import { DEFAULT_DURATION_SECONDS } from "./lib/options.js";
import { percentile, Report } from "./lib/report.js";
import type { ScenarioContext } from "./lib/scenario.js";

const IDLE_CONNECTIONS = 500;
const SAMPLE_REQUESTS = 300;
const HUGE_BODY_BYTES = 50 * 1024 * 1024;
const INVALID_TOKEN_REQUESTS = 100_000;
/**
 * Growth of the server's resident memory that fails the run. A healthy server's RSS settles
 * within a few tens of MB once V8's heap and the statement caches are warm; 100 MB over the
 * invalid-token requests means more than 1 kB kept per request at the default count, i.e. memory
 * that grows with traffic rather than with the working set (a leak), while leaving room for
 * V8's garbage collection timing, which alone moves RSS by tens of MB.
 */
const RSS_GROWTH_LIMIT_MB = 100;

/**
 * Abusive clients: idle connections must not slow or starve normal requests; a 50 MB body gets
 * 413 at once (declared length, and chunked without one); memory stays level over many requests
 * with invalid tokens and a soak of mixed bad requests.
 */
export async function abusiveClients(context: ScenarioContext): Promise<Report> {
  const report = new Report(`abusive clients (${context.database})`);
  const deployment = await Deployment.create(context.database, context.postgresAdminUrl);
  try {
    const [code] = await deployment.mint("code", 1);
    await deployment.start();
    const token = await exchange(`${deployment.base}/index.php/apps/oauth2/api/v1/token`, {
      method: "POST",
      headers: { authorization: basic(CLIENT.id, CLIENT.secret), "content-type": FORM },
      body: `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(CLIENT.redirect)}`,
    });
    if (!token.answered || token.status !== 200) throw new Error("no access token for the scenario");
    const bearer = `Bearer ${(JSON.parse(token.body) as { access_token: string }).access_token}`;
    await idleConnections(deployment, bearer, report);
    for (const chunked of [false, true]) await hugeBody(deployment, chunked, report);
    await memory(deployment, context.durationSeconds, report);
    report.check("the server is still running", deployment.alive);
  } finally {
    await deployment.cleanup();
  }
  return report;
}

/** Sequential normal requests (userinfo with a valid token): their latencies and how many succeeded. */
async function sample(deployment: Deployment, bearer: string): Promise<{ p50: number; p99: number; ok: number }> {
  const times: number[] = [];
  let ok = 0;
  for (let i = 0; i < SAMPLE_REQUESTS; i++) {
    const answer = await exchange(`${deployment.base}/index.php/apps/oauth2/api/v1/userinfo`, {
      headers: { authorization: bearer },
    });
    times.push(answer.ms);
    if (answer.answered && answer.status === 200) ok += 1;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), ok };
}

async function idleConnections(deployment: Deployment, bearer: string, report: Report): Promise<void> {
  await sample(deployment, bearer); // warm-up, so the first measurement is not the cold one
  const without = await sample(deployment, bearer);
  const sockets: net.Socket[] = [];
  let closedByServer = 0;
  await Promise.all(
    Array.from(
      { length: IDLE_CONNECTIONS },
      () =>
        new Promise<void>((resolve) => {
          const socket = net.connect(deployment.port, "127.0.0.1", () => resolve());
          socket.on("error", () => resolve());
          socket.on("close", () => {
            closedByServer += 1;
          });
          sockets.push(socket);
        }),
    ),
  );
  const opened = sockets.filter((s) => !s.destroyed).length;
  const withIdle = await sample(deployment, bearer);
  const stillOpen = sockets.filter((s) => !s.destroyed).length;
  for (const socket of sockets) socket.destroy();
  report.figure(
    "idle connections opened / still open after the sample",
    `${opened} / ${stillOpen} (${closedByServer} closed by the server)`,
  );
  report.figure("userinfo p50 without / with idle connections", `${without.p50.toFixed(2)} / ${withIdle.p50.toFixed(2)} ms`);
  report.figure("userinfo p99 without / with idle connections", `${without.p99.toFixed(2)} / ${withIdle.p99.toFixed(2)} ms`);
  report.figure("p50 ratio with / without", withIdle.p50 / without.p50);
  report.check(
    `normal requests still succeed beside ${IDLE_CONNECTIONS} idle connections`,
    withIdle.ok === SAMPLE_REQUESTS,
    `${withIdle.ok}/${SAMPLE_REQUESTS}`,
  );
}

/** Streams a 50 MB JSON body to the events endpoint; the answer must be 413, long before the body is sent. */
async function hugeBody(deployment: Deployment, chunked: boolean, report: Report): Promise<void> {
  const started = performance.now();
  let sent = 0;
  const outcome = await new Promise<{ status: number | undefined; error?: string }>((resolve) => {
    const headers: Record<string, string> = { "content-type": "application/json", authorization: deployment.adminAuthorization };
    if (!chunked) headers["content-length"] = String(HUGE_BODY_BYTES);
    const request = http.request(`${deployment.base}/index.php/apps/activity/api/v2/events`, {
      method: "POST",
      headers,
      agent: false,
    });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      response.resume();
      resolve({ status: response.statusCode });
      request.destroy();
    });
    request.on("error", (error) => {
      if (!answered) resolve({ status: undefined, error: (error as NodeJS.ErrnoException).code ?? error.message });
    });
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && !request.destroyed && sent < HUGE_BODY_BYTES) {
        sent += piece.length;
        if (!request.write(piece)) {
          request.once("drain", pump);
          return;
        }
      }
      if (!answered && !request.destroyed) request.end();
    };
    request.write("[");
    pump();
  });
  const ms = performance.now() - started;
  const how = chunked ? "chunked, no length" : "Content-Length: 50 MB";
  report.figure(
    `50 MB body (${how}): answer, time, bytes sent`,
    `${outcome.status ?? outcome.error} after ${ms.toFixed(0)} ms, ${(sent / 1048576).toFixed(1)} MB sent`,
  );
  report.check(`a 50 MB body (${how}) gets 413`, outcome.status === 413, String(outcome.status ?? outcome.error));
}

/** autocannon against loopback, each request with a new random bearer token (no cache can hold them all). */
async function invalidTokens(deployment: Deployment, amount: number): Promise<{ statuses: string; errors: number }> {
  const result = await autocannon({
    url: `${deployment.base}/index.php/apps/oauth2/api/v1/userinfo`,
    connections: 8,
    amount,
    timeout: 10,
    requests: [
      {
        setupRequest: (request: any) => ({
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${randomBytes(32).toString("hex")}` },
        }),
      },
    ],
  } as autocannon.Options);
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([status, s]) => `${status}: ${(s as { count: number }).count}`)
    .join(", ");
  return { statuses, errors: result.errors };
}

/**
 * Mixed bad requests for a while: bad bearers, bad JSON, unknown paths. (Not the throttled
 * endpoints: their deliberate delays would only make the soak send fewer requests.)
 */
async function soak(deployment: Deployment, seconds: number): Promise<number> {
  const result = await autocannon({
    url: deployment.base,
    connections: 8,
    duration: seconds,
    timeout: 10,
    requests: [
      { method: "GET", path: "/index.php/apps/oauth2/api/v1/userinfo", headers: { authorization: "Bearer nope" } },
      {
        method: "POST",
        path: "/index.php/apps/activity/api/v2/events",
        headers: { "content-type": "application/json", authorization: deployment.adminAuthorization },
        body: "{not json",
      },
      { method: "GET", path: `/no/such/path/${"x".repeat(200)}` },
      {
        method: "GET",
        path: "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json",
        headers: { authorization: "Bearer also-nope" },
      },
    ],
  } as autocannon.Options);
  return result.requests.total;
}

async function memory(deployment: Deployment, durationSeconds: number, report: Report): Promise<void> {
  const scale = durationSeconds / DEFAULT_DURATION_SECONDS;
  const amount = Math.round(INVALID_TOKEN_REQUESTS * Math.min(1, scale));
  await invalidTokens(deployment, 5000); // warm-up: JIT, heap and caches reach their working size
  await sleep(1000);
  const before = deployment.rssMb();
  const invalid = await invalidTokens(deployment, amount);
  const afterInvalid = deployment.rssMb();
  const soakSeconds = Math.round(durationSeconds * (120 / DEFAULT_DURATION_SECONDS));
  const soaked = await soak(deployment, soakSeconds);
  await sleep(1000);
  const after = deployment.rssMb();
  report.figure(`${amount} invalid-token requests: answers`, `${invalid.statuses}; connection errors ${invalid.errors}`);
  report.figure("soak: mixed bad requests", `${soaked} in ${soakSeconds} s`);
  report.figure(
    "server RSS before / after invalid tokens / after soak",
    `${before.toFixed(0)} / ${afterInvalid.toFixed(0)} / ${after.toFixed(0)} MB`,
  );
  report.check(
    `RSS grows by less than ${RSS_GROWTH_LIMIT_MB} MB over both`,
    after - before < RSS_GROWTH_LIMIT_MB,
    `${(after - before).toFixed(1)} MB`,
  );
}
