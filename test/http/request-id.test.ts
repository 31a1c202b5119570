import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { authorizeUrl, createOAuthTestApp, loggedIn, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import { createProxiedApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { appWithOwnStorage, refusedPort } from "../support/outage.js";
import { createTestStorage } from "../support/storage.js";

/**
 * issue 18: a request id per request, in every log line of the request, returned as X-Request-Id
 * and shown on error pages, so that a user's report can be matched to the log (review F24).
 */
describe("request ids", () => {
  let t: TestApp;
  let logged: FastifyInstance;
  const lines: Array<Record<string, unknown>> = [];
  before(async () => {
    t = await createOAuthTestApp();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    logged = await buildApp({ services: { ...t.services, log: pino({ level: "info" }, sink) }, sleep: async () => {} });
    logged.get("/test/internal-error", async () => {
      throw new Error("SELECT secret FROM internals");
    });
    await logged.ready();
  });
  after(async () => {
    await logged.close();
    await t.close();
  });

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("every answer carries a random X-Request-Id, and the request's log lines carry the same id", async () => {
    lines.length = 0;
    const first = await logged.inject({ url: "/status.php" });
    const second = await logged.inject({ url: "/no/such/page" });
    const ids = [first.headers["x-request-id"], second.headers["x-request-id"]];
    for (const id of ids) assert.match(String(id), UUID);
    assert.notEqual(ids[0], ids[1]);
    for (const id of ids) {
      const own = lines.filter((line) => line.reqId === id);
      assert.ok(own.length >= 1, `a log line with reqId ${id}: ${JSON.stringify(lines)}`);
    }
    // The 404's two lines (route not found, the access line) share one id.
    assert.equal(lines.filter((line) => line.reqId === ids[1]).length, 2);
  });

  it("a failed login is logged at warn level with the request's id", async () => {
    lines.length = 0;
    const browser = new FormClient(logged);
    const response = await browser.login("alice", "not the password");
    assert.equal(response.statusCode, 401);
    const failure = lines.find((line) => line.event === "login_failed");
    assert.equal(failure?.level, 40);
    assert.equal(failure?.reqId, response.headers["x-request-id"]);
  });

  it("an incoming X-Request-Id is ignored from a client that is not a trusted proxy", async () => {
    const response = await logged.inject({ url: "/status.php", headers: { "x-request-id": "client-chosen-id" } });
    assert.match(String(response.headers["x-request-id"]), UUID);
  });

  it("an incoming X-Request-Id is kept from a trusted proxy only when short and plain", async () => {
    const proxied = await createProxiedApp(t);
    try {
      const kept = await proxied.inject({ url: "/status.php", headers: { "x-request-id": "proxy-7f3a.91:2" } });
      assert.equal(kept.headers["x-request-id"], "proxy-7f3a.91:2");
      for (const unsafe of ["a b", "<script>", "x".repeat(129), "id\u00e9"]) {
        const replaced = await proxied.inject({ url: "/status.php", headers: { "x-request-id": unsafe } });
        assert.match(String(replaced.headers["x-request-id"]), UUID, unsafe);
      }
    } finally {
      await proxied.close();
    }
  });

  it("the authorization error page shows the request id, and the refusal is logged at warn level under it", async () => {
    lines.length = 0;
    const browser = await loggedIn({ ...t, app: logged }, "alice", PASSWORD);
    const page = await browser.get(authorizeUrl({ ...WEB_CLIENT, redirectUri: "https://evil.example/cb" }));
    assert.equal(page.statusCode, 400);
    const id = String(page.headers["x-request-id"]);
    assert.match(id, UUID);
    assert.match(page.body, new RegExp(`id="request-id">Reference for the administrator: <code>${id}</code>`));
    const refusal = lines.find((line) => line.event === "oauth2_authorize_refused");
    assert.equal(refusal?.level, 40, "a refused authorization request is the client's mistake: a warning");
    assert.equal(refusal?.reqId, id);
  });

  it("a 500 answer carries the request id, and a browser's 500 page shows it", async () => {
    lines.length = 0;
    const json = await logged.inject({ url: "/test/internal-error" });
    assert.equal(json.statusCode, 500);
    assert.match(String(json.headers["x-request-id"]), UUID);
    const page = await logged.inject({ url: "/test/internal-error", headers: { accept: "text/html" } });
    assert.equal(page.statusCode, 500);
    const id = String(page.headers["x-request-id"]);
    assert.match(page.body, new RegExp(`<code>${id}</code>`));
    assert.doesNotMatch(page.body, /SELECT secret/);
    const logLine = lines.find((line) => line.reqId === id && line.msg === "unhandled error");
    assert.ok(logLine, JSON.stringify(lines));
  });

  it("the 503 page of an unavailable database shows the request id", async () => {
    const storage = await createTestStorage();
    const down = await appWithOwnStorage(storage, { databaseUrl: `postgres://k:p@127.0.0.1:${await refusedPort()}/k` });
    try {
      const page = await down.app.inject({
        url: "/index.php/login",
        headers: { accept: "text/html", cookie: "ks_session=a-browser-session" },
      });
      assert.equal(page.statusCode, 503);
      const id = String(page.headers["x-request-id"]);
      assert.match(id, UUID);
      assert.match(page.body, new RegExp(`<code>${id}</code>`));
    } finally {
      await down.close();
      await storage.cleanup();
    }
  });
});
