import assert from "node:assert/strict";
import fs from "node:fs";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { readEnvironment } from "../../src/config/environment.js";
import { buildMetricsApp, METRICS_PATH } from "../../src/http/metrics-listener.js";
import { UNMATCHED_ROUTE } from "../../src/observability/metrics.js";
import { buildInfo } from "../../src/product.js";
import { LOGIN_THROTTLE, loginUserBucket } from "../../src/security/domain/throttle-policy.js";
import {
  basic,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  PASSWORD,
  refresh,
  TOKEN,
  tokenRequest,
  userinfo,
  WEB_CLIENT,
} from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { type Exposition, parseExposition } from "../support/prometheus.js";
import { testDatabaseDialect } from "../support/storage.js";

const readPackageVersion = () =>
  (JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** issue 18: Prometheus metrics, scraped from the metrics listener after real requests. */
describe("Prometheus metrics", () => {
  let t: TestApp;
  let metricsApp: FastifyInstance;
  before(async () => {
    t = await createOAuthTestApp();
    metricsApp = await buildMetricsApp(t.services);
    await metricsApp.ready();
  });
  after(async () => {
    await metricsApp.close();
    await t.close();
  });

  async function scrape(): Promise<Exposition> {
    const response = await metricsApp.inject({ method: "GET", url: METRICS_PATH });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
    assert.equal(response.headers["cache-control"], "no-store");
    return parseExposition(response.body);
  }

  const requests = (m: Exposition, labels: Record<string, string>) =>
    m.value("keystream_http_request_duration_seconds_count", labels) ?? 0;

  it("metrics scraped after a login, a code exchange, a refresh, userinfo, a throttled login and a job run count each of them", async () => {
    const before = await scrape();

    // Login, authorization, code exchange, refresh, userinfo, one refused exchange.
    const code = await issueCode(t);
    const exchange = await exchangeCode(t, code);
    assert.equal(exchange.statusCode, 200, exchange.body);
    const tokens = exchange.json() as { access_token: string; refresh_token: string };
    const refreshed = await refresh(t, tokens.refresh_token);
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    const newTokens = refreshed.json() as { access_token: string };
    assert.equal((await userinfo(t, newTokens.access_token)).statusCode, 200);
    // The refresh rotated the pair: one access token and one refresh token are live.
    const live = await scrape();
    assert.equal(live.value("keystream_live_credentials", { kind: "access_token" }), 1);
    assert.equal(live.value("keystream_live_credentials", { kind: "refresh_token" }), 1);
    assert.ok((live.value("keystream_live_credentials", { kind: "session" }) ?? 0) >= 1);
    // A replayed code revokes its grant (RFC 9700 §4.5), and with it those tokens.
    const replay = await exchangeCode(t, code);
    assert.equal(replay.statusCode, 400);
    const unknownGrant = await tokenRequest(
      t,
      { grant_type: "made-up-grant" },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(unknownGrant.statusCode, 400);

    // A user whose login bucket is locked out: refused with 429 before the password is looked at.
    await t.testStorage.storage.db
      .insertInto("throttle")
      .values({
        bucket: loginUserBucket("alice").key,
        failures: LOGIN_THROTTLE.lockoutAfterFailures,
        last_failure_at: t.clock.nowSeconds(),
      })
      .onConflict((oc) =>
        oc.column("bucket").doUpdateSet({ failures: LOGIN_THROTTLE.lockoutAfterFailures, last_failure_at: t.clock.nowSeconds() }),
      )
      .execute();
    assert.equal((await new FormClient(t.app).login("alice", PASSWORD)).statusCode, 429);

    // The background jobs, as the scheduler runs them.
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("accounts:expired-sessions"), ran.join());

    const after = await scrape();
    // Requests by route pattern and status.
    const tokenOk = { method: "POST", route: TOKEN, status_code: "200" };
    assert.equal(requests(after, tokenOk) - requests(before, tokenOk), 2);
    const tokenRefused = { method: "POST", route: TOKEN, status_code: "400" };
    assert.equal(requests(after, tokenRefused) - requests(before, tokenRefused), 2);
    const userinfoOk = { route: "/index.php/apps/oauth2/api/v1/userinfo", status_code: "200" };
    assert.equal(requests(after, userinfoOk) - requests(before, userinfoOk), 1);
    const throttled = { method: "POST", route: "/index.php/login", status_code: "429" };
    assert.equal(requests(after, throttled) - requests(before, throttled), 1);
    assert.equal(after.types.get("keystream_http_request_duration_seconds"), "histogram");
    const infBucket = after.value("keystream_http_request_duration_seconds_bucket", { ...tokenOk, le: "+Inf" });
    assert.equal(infBucket, after.value("keystream_http_request_duration_seconds_count", tokenOk));
    assert.ok((after.value("keystream_http_request_duration_seconds_sum", tokenOk) ?? 0) > 0);

    // Token endpoint outcomes by grant type and error.
    const tokenOutcomes = (grant: string, outcome: string) =>
      after.value("keystream_oauth_token_requests_total", { grant_type: grant, outcome });
    assert.equal(tokenOutcomes("authorization_code", "success"), 1);
    assert.equal(tokenOutcomes("refresh_token", "success"), 1);
    assert.equal(tokenOutcomes("authorization_code", "invalid_grant"), 1);
    assert.equal(tokenOutcomes("other", "invalid_grant"), 1, "an unknown grant_type is one label, not the client's text");
    assert.equal(after.find("keystream_oauth_token_requests_total", { grant_type: "made-up-grant" }).length, 0);

    // Throttle refusals, job runs, statements, live credentials.
    assert.equal(after.value("keystream_throttle_total", { throttle: "login", action: "refused" }), 1);
    assert.equal(after.value("keystream_job_runs_total", { job: "accounts:expired-sessions", outcome: "success" }), 1);
    assert.equal(after.value("keystream_job_duration_seconds_count", { job: "accounts:expired-sessions" }), 1);
    const statements = (m: Exposition) => m.value("keystream_db_query_duration_seconds_count") ?? 0;
    assert.ok(statements(after) > statements(before) + 10, `${statements(before)} → ${statements(after)}`);
    assert.equal(after.value("keystream_live_credentials", { kind: "access_token" }), 0);
    assert.equal(after.value("keystream_live_credentials", { kind: "refresh_token" }), 0);
    assert.equal(after.value("keystream_db_unavailable"), 0);
    assert.equal(after.value("keystream_db_outages_total"), 0);
    if (testDatabaseDialect === "postgres") {
      assert.ok((after.value("keystream_db_pool_connections", { state: "total" }) ?? 0) >= 1);
      assert.equal(after.types.get("keystream_db_pool_connections"), "gauge");
    } else {
      assert.equal(after.find("keystream_db_pool_connections").length, 0, "SQLite has no pool");
    }
  });

  it("requests are counted by route pattern, never by URL: a path parameter and an unknown URL add no series of their own", async () => {
    await t.app.inject({ method: "GET", url: "/remote.php/dav/avatars/alice/64.png" });
    await t.app.inject({ method: "GET", url: "/remote.php/dav/avatars/bob/64.png" });
    await t.app.inject({ method: "GET", url: "/no/such/page/1" });
    await t.app.inject({ method: "GET", url: "/no/such/page/2" });
    const m = await scrape();
    const routes = new Set(m.find("keystream_http_request_duration_seconds_count").map((s) => s.labels.route));
    assert.ok(routes.has("/remote.php/dav/avatars/:uid/:file"), [...routes].join());
    assert.ok(routes.has(UNMATCHED_ROUTE));
    for (const route of routes) assert.doesNotMatch(String(route), /alice|bob|\/no\/such/);
    assert.equal(m.value("keystream_http_request_duration_seconds_count", { route: UNMATCHED_ROUTE, status_code: "404" }), 2);
  });

  it("keystream_build_info is 1 and names the running version and the commit it was built from", async () => {
    const metrics = await scrape();
    // From src/ (tsx) no build recorded a commit: "unknown"; the compiled release's real commit is
    // checked in test/runtime/production-install.test.ts.
    const { version, commit } = buildInfo();
    assert.equal(version, readPackageVersion());
    assert.equal(metrics.value("keystream_build_info", { version, commit }), 1);
    assert.equal(metrics.value("keystream_build_info", { version: "0.0.0", commit }), undefined);
  });

  it("the metrics are not served on the public listener", async () => {
    const response = await t.app.inject({ method: "GET", url: METRICS_PATH });
    assert.equal(response.statusCode, 404);
    assert.doesNotMatch(response.body, /keystream_/);
  });

  it("the metrics listener is off unless KEYSTREAM_METRICS_PORT is set, and listens on the loopback interface unless told otherwise", () => {
    assert.equal(readEnvironment({}).metricsListener, undefined);
    assert.deepEqual(readEnvironment({ KEYSTREAM_METRICS_PORT: "9464" }).metricsListener, { host: "127.0.0.1", port: 9464 });
    assert.deepEqual(readEnvironment({ KEYSTREAM_METRICS_PORT: "9464", KEYSTREAM_METRICS_HOST: "10.0.0.7" }).metricsListener, {
      host: "10.0.0.7",
      port: 9464,
    });
    for (const port of ["metrics", "-1", "65536", "9464.5"]) {
      assert.throws(() => readEnvironment({ KEYSTREAM_METRICS_PORT: port }), /KEYSTREAM_METRICS_PORT must be an integer/);
    }
  });

  it("two apps in one process keep their own registries: one app's requests are not counted by the other", async () => {
    const other = await createOAuthTestApp();
    const otherMetrics = await buildMetricsApp(other.services);
    try {
      const countOf = async (app: FastifyInstance) =>
        parseExposition((await app.inject({ method: "GET", url: METRICS_PATH })).body).value(
          "keystream_http_request_duration_seconds_count",
          { route: "/status.php", status_code: "200" },
        ) ?? 0;
      const mine = await countOf(metricsApp);
      const theirs = await countOf(otherMetrics);
      await other.app.inject({ method: "GET", url: "/status.php" });
      assert.equal(await countOf(otherMetrics), theirs + 1);
      assert.equal(await countOf(metricsApp), mine);
    } finally {
      await otherMetrics.close();
      await other.close();
    }
  });
});
