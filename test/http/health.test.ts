import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { afterEach, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { buildMetricsApp } from "../../src/http/metrics-listener.js";
import type { Readiness } from "../../src/http/readiness.js";
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH } from "../../src/http/routes/health.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { eventually } from "../support/eventually.js";
import { appWithOwnStorage, holdTableLock, type OutageApp, refusedPort } from "../support/outage.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * issue 18: /health/live (the process answers) and /health/ready (database reachable, migrations
 * current, settings valid), on the main listener and on the metrics listener.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function testApp(): Promise<TestApp> {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  return t;
}

function checksOf(response: LightMyRequestResponse): Record<string, string> {
  const body = response.json() as Readiness;
  return Object.fromEntries(body.checks.map((check) => [check.name, check.status]));
}

async function ready(app: FastifyInstance): Promise<LightMyRequestResponse> {
  return app.inject({ method: "GET", url: HEALTH_READY_PATH });
}

describe("health endpoints", () => {
  it("live and ready answer 200 on the main and the metrics listener, uncached, unauthenticated", async () => {
    const t = await testApp();
    const metricsApp = await buildMetricsApp(t.services);
    cleanups.push(() => metricsApp.close());
    for (const app of [t.app, metricsApp]) {
      const live = await app.inject({ method: "GET", url: HEALTH_LIVE_PATH });
      assert.equal(live.statusCode, 200);
      assert.deepEqual(live.json(), { status: "UP" });
      assert.equal(live.headers["cache-control"], "no-store");
      const response = await ready(app);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers["cache-control"], "no-store");
      assert.deepEqual(checksOf(response), { database: "UP", migrations: "UP", settings: "UP", maintenance: "UP" });
    }
  });

  it("health probes are not logged at info level per request", async () => {
    const t = await testApp();
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logged = await buildApp({ services: { ...t.services, log: pino({ level: "info" }, sink) }, sleep: async () => {} });
    cleanups.push(() => logged.close());
    assert.equal((await logged.inject({ url: HEALTH_LIVE_PATH })).statusCode, 200);
    assert.equal((await logged.inject({ url: HEALTH_READY_PATH })).statusCode, 200);
    assert.deepEqual(lines, []);
    // Any other request still has its access-log line.
    assert.equal((await logged.inject({ url: "/status.php" })).statusCode, 200);
    assert.equal(lines.length, 1);
  });

  it("ready answers 503 listing the failing checks while the database is unreachable, and live stays 200", async () => {
    const storage = await createTestStorage();
    cleanups.push(() => storage.cleanup());
    const down = await appWithOwnStorage(storage, {
      databaseUrl: `postgres://keystream:secret-password@127.0.0.1:${await refusedPort()}/keystream`,
    });
    cleanups.push(() => down.close());
    const response = await ready(down.app);
    assert.equal(response.statusCode, 503);
    assert.equal((response.json() as Readiness).status, "DOWN");
    assert.deepEqual(checksOf(response), { database: "DOWN", migrations: "DOWN", settings: "UP", maintenance: "UP" });
    assert.doesNotMatch(response.body, /secret-password/);
    assert.equal((await down.app.inject({ url: HEALTH_LIVE_PATH })).statusCode, 200);
    // The failed check is reported as an outage (logged once, like a request's).
    assert.equal(down.log.events("database_unavailable").length, 1);
  });

  it("ready answers 503 during a database outage met by requests, and 200 again once the database answers", async () => {
    const storage = await createTestStorage();
    cleanups.push(() => storage.cleanup());
    const node = await appWithOwnStorage(storage, { statementMs: 200 });
    cleanups.push(() => node.close());
    assert.equal((await ready(node.app)).statusCode, 200);

    accepted(await node.services.users.create({ uid: "alice", password: "alice password" }));
    const browser = new FormClient(node.app);
    const form = await browser.get("/index.php/login");
    const release = await holdSessionsLock(storage);
    // A login writes its session: it waits for the lock past the statement timeout.
    const login = await browser.post("/index.php/login", {
      user: "alice",
      password: "alice password",
      requesttoken: requestTokenOf(form.body),
    });
    assert.equal(login.statusCode, 503, login.body);
    const during = await ready(node.app);
    assert.equal(during.statusCode, 503);
    assert.equal(checksOf(during).database, "DOWN");
    assert.equal((await node.app.inject({ url: HEALTH_LIVE_PATH })).statusCode, 200);

    await release();
    await eventually("ready again", async () => (await ready(node.app)).statusCode === 200);
    assert.equal((await node.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 200);
  });

  it("ready answers 503 while config.json cannot be read (naming its error on the metrics listener only), and 200 again once it is fixed", async () => {
    const t = await testApp();
    const metricsApp = await buildMetricsApp(t.services);
    cleanups.push(() => metricsApp.close());
    const file = path.join(t.testStorage.dataDir, "config.json");
    fs.writeFileSync(file, '{"maintenance": false, "secret-looking": 1,,}\n');
    let broken: LightMyRequestResponse | undefined;
    // The settings are re-read when the file changes, at most once a second.
    await eventually("config.json re-read", async () => {
      broken = await ready(metricsApp);
      return broken.statusCode === 503;
    });
    assert.ok(broken);
    assert.equal(checksOf(broken).settings, "DOWN");
    const reason = (broken.json() as Readiness).checks.find((check) => check.name === "settings")?.reason;
    assert.match(String(reason), /config\.json/);
    assert.match(String(reason), /JSON/);
    // The public port says which check failed, not what the file holds.
    const onPublicPort = await ready(t.app);
    assert.equal(onPublicPort.statusCode, 503);
    assert.equal(checksOf(onPublicPort).settings, "DOWN");
    assert.doesNotMatch(onPublicPort.body, /reason|secret-looking|config\.json/);
    assert.equal((await t.app.inject({ url: HEALTH_LIVE_PATH })).statusCode, 200);

    fs.writeFileSync(file, '{"maintenance": false}\n');
    // A later modification time than the broken file's, whatever the file system's resolution.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    await eventually("config.json fixed", async () => (await ready(t.app)).statusCode === 200);
  });

  it("ready answers 503 in maintenance mode (every page does), live stays 200", async () => {
    const t = await testApp();
    t.services.settings.set("maintenance", true);
    const response = await ready(t.app);
    assert.equal(response.statusCode, 503);
    assert.deepEqual(checksOf(response), { database: "UP", migrations: "UP", settings: "UP", maintenance: "DOWN" });
    assert.equal((await t.app.inject({ url: HEALTH_LIVE_PATH })).statusCode, 200);
    t.services.settings.set("maintenance", false);
    assert.equal((await ready(t.app)).statusCode, 200);
  });

  it("ready answers 503 while migrations are pending, naming them", async () => {
    const storage = await createTestStorage({ migrate: false });
    cleanups.push(() => storage.cleanup());
    const node: OutageApp = await appWithOwnStorage(storage);
    cleanups.push(() => node.close());
    const metricsApp = await buildMetricsApp(node.services);
    cleanups.push(() => metricsApp.close());
    const response = await ready(metricsApp);
    assert.equal(response.statusCode, 503);
    assert.deepEqual(checksOf(response), { database: "UP", migrations: "DOWN", settings: "UP", maintenance: "UP" });
    assert.match(response.body, /2026_11_21_0001_accounts/);
    assert.equal((await ready(node.app)).statusCode, 503);
  });
});

/** Another connection holding the write lock on sessions (what a login writes). */
async function holdSessionsLock(t: TestStorage): Promise<() => Promise<void>> {
  const release = await holdTableLock(t, "sessions");
  cleanups.push(release);
  return release;
}
