import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { createServices } from "../../src/services.js";
import { appWithOwnStorage, type OutageApp, refusedPort } from "../support/outage.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * issue 16: while the database is unavailable every route answers 503 with Retry-After, in its
 * family's error form, and the outage is logged once; and no 500 carries a Node error's text
 * (review finding 7). The database here is a PostgreSQL address where nothing listens, whatever
 * the test run's database: every request that touches storage meets a refused connection.
 */
describe("answers while the database is unavailable", () => {
  let storage: TestStorage;
  let down: OutageApp;
  before(async () => {
    storage = await createTestStorage();
    down = await appWithOwnStorage(storage, {
      databaseUrl: `postgres://keystream:secret-password@127.0.0.1:${await refusedPort()}/keystream`,
    });
  });
  after(async () => {
    await down.close();
    await storage.cleanup();
  });

  const basic = `Basic ${Buffer.from("alice:some-password").toString("base64")}`;

  it("an unavailable database answers 503 with Retry-After in each route family's error form, and logs the outage once", async () => {
    // OAuth API: RFC 6749 JSON, as the token endpoint's throttle answers.
    const token = await down.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/token",
      payload: "grant_type=authorization_code&code=x&client_id=y&redirect_uri=https%3A%2F%2Fa.example%2F",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(token.statusCode, 503);
    assert.ok(Number(token.headers["retry-after"]) > 0);
    assert.equal(token.json().error, "temporarily_unavailable");
    assert.equal(token.headers["cache-control"], "no-store");

    // OCS: the envelope, with statuscode 503 (v1 too: a 503, not the v1 habit of HTTP 200).
    for (const url of ["/ocs/v1.php/cloud/user?format=json", "/ocs/v2.php/cloud/user?format=json"]) {
      const ocs = await down.app.inject({ method: "GET", url, headers: { authorization: basic, "ocs-apirequest": "true" } });
      assert.equal(ocs.statusCode, 503, url);
      assert.ok(Number(ocs.headers["retry-after"]) > 0, url);
      assert.equal(ocs.json().ocs.meta.statuscode, 503, url);
    }
    // The activity API: its OCS envelope.
    const activity = await down.app.inject({
      method: "GET",
      url: "/index.php/apps/activity/api/v2/activity",
      headers: { authorization: basic },
    });
    assert.equal(activity.statusCode, 503);
    assert.ok(Number(activity.headers["retry-after"]) > 0);
    assert.equal(activity.json().ocs.meta.statuscode, 503);

    // A browser (its session is looked up): an HTML page with the pages' security headers.
    const page = await down.app.inject({
      method: "GET",
      url: "/index.php/login",
      headers: { accept: "text/html", cookie: "ks_session=a-browser-session" },
    });
    assert.equal(page.statusCode, 503);
    assert.ok(Number(page.headers["retry-after"]) > 0);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    assert.equal(page.headers["x-frame-options"], "DENY");
    assert.match(page.body, /Temporarily unavailable/);

    // Anything else: the JSON error form.
    const avatar = await down.app.inject({
      method: "GET",
      url: "/remote.php/dav/avatars/alice/64.png",
      headers: { authorization: basic },
    });
    assert.equal(avatar.statusCode, 503);
    assert.ok(Number(avatar.headers["retry-after"]) > 0);
    assert.equal(avatar.json().error, "temporarily_unavailable");

    // Nothing of the cause reaches a client.
    for (const response of [token, activity, page, avatar]) {
      assert.doesNotMatch(response.body, /ECONNREFUSED|127\.0\.0\.1|connect|keystream:/i);
    }
    // Six refused requests, one outage: one warning, naming the database without its password.
    const warnings = down.log.events("database_unavailable");
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.database, `postgres://127.0.0.1:${new URL(down.storage.describe).port}/keystream`);
    assert.match(String(warnings[0]?.reason), /ECONNREFUSED/);
    assert.doesNotMatch(JSON.stringify(down.log.lines), /secret-password/);
  });
});

describe("error answers never carry a Node error's text (finding 7)", () => {
  let storage: TestStorage;
  let app: FastifyInstance;
  before(async () => {
    storage = await createTestStorage();
    const services = createServices({
      storage: storage.storage,
      dataDir: storage.dataDir,
      clock: new ManualClock(),
      settings: new HostSettings(storage.dataDir),
      log: pino({ level: "silent" }),
    });
    app = await buildApp({ services });
    // What the authorize endpoint did with a redirect_uri holding CR/LF: Node refuses the header
    // while the answer's head is written (ERR_INVALID_CHAR), after the route has returned.
    app.get("/test/invalid-header", async (_request, reply) => reply.redirect("https://client.example/c\r\nb", 303));
    app.get("/test/internal-error", async () => {
      throw Object.assign(new Error("SELECT secret FROM internals"), { code: "E_INTERNAL_DETAIL" });
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await storage.cleanup();
  });

  it("a header Node refuses to write answers a plain 500 without Node's error code or message", async () => {
    const response = await app.inject({ method: "GET", url: "/test/invalid-header" });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { error: "server_error", error_description: "Internal server error." });
    assert.doesNotMatch(response.body, /ERR_INVALID_CHAR|Invalid character|location/i);
    assert.equal(response.headers.location, undefined);
  });

  it("an error thrown by a route answers a plain 500 without its message or code", async () => {
    const response = await app.inject({ method: "GET", url: "/test/internal-error" });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { error: "server_error", error_description: "Internal server error." });
  });

  it("Fastify's own client errors keep their status and clear message (a body too large is 413)", async () => {
    // The token endpoint reads its body without a session (its credentials are in it).
    const response = await app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/token",
      payload: JSON.stringify({ padding: "x".repeat(1024 * 1024 + 10) }),
      headers: { "content-type": "application/json" },
    });
    assert.equal(response.statusCode, 413);
    assert.match(response.json().error_description, /too large/i);
  });
});
