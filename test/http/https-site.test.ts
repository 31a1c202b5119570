import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { after, afterEach, before, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { HostSettings } from "../../src/config/host-settings.js";
import { DEFAULT_SERVER_TIMEOUTS } from "../../src/config/timeouts.js";
import { startServer } from "../../src/server.js";
import { createOAuthTestApp, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import { createProxiedApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { REPO_ROOT } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

const HSTS = "max-age=15552000";

function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers["set-cookie"];
  return header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
}

describe(`cookies are Secure and HSTS is sent when the site is https (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", password: PASSWORD, isAdmin: true }));
  });
  after(() => t.close());
  afterEach(() => {
    t.services.settings.delete("overwrite.cli.url");
  });

  /**
   * An administrator's visit over `app` (plain http as inject sends it, unless `headers` say
   * otherwise): the login form, the login, a settings form whose answer carries a flash, and the
   * page that reads it. Returns every answer, with the cookies each set by name.
   */
  const visit = async (app: FastifyInstance, headers: Record<string, string> = {}) => {
    const browser = new FormClient(app);
    const answers: LightMyRequestResponse[] = [];
    const form = await browser.get("/index.php/login", headers);
    answers.push(form);
    const login = await browser.post(
      "/index.php/login",
      { user: "root", password: PASSWORD, requesttoken: requestTokenOf(form.body) },
      headers,
    );
    assert.equal(login.statusCode, 303);
    answers.push(login);
    const settings = await browser.get("/index.php/settings/admin/applications", headers);
    answers.push(settings);
    const client = (await t.services.oauth.clients.list()).find((c) => c.name === WEB_CLIENT.name);
    assert.ok(client);
    const regenerated = await browser.post(
      `/index.php/apps/oauth2/clients/${client.id}/regenerate-secret`,
      { requesttoken: requestTokenOf(settings.body) },
      headers,
    );
    assert.equal(regenerated.statusCode, 303, regenerated.body);
    answers.push(regenerated);
    const shown = await browser.get("/index.php/settings/admin/applications", headers);
    assert.match(shown.body, /id="oauth2-client-secret"/, "the flash was read");
    answers.push(shown);
    const cookies = new Map<string, string[]>();
    for (const cookie of answers.flatMap(setCookies)) {
      const name = cookie.slice(0, cookie.indexOf("="));
      cookies.set(name, [...(cookies.get(name) ?? []), cookie]);
    }
    for (const name of ["ks_login_form", "ks_session", "ks_settings_flash"]) assert.ok(cookies.has(name), name);
    return { answers, cookies: [...cookies.values()].flat() };
  };

  it("overwrite.cli.url=https://… and a plain-http request: the login form, session and flash cookies are Secure, and every answer has Strict-Transport-Security", async () => {
    t.services.settings.set("overwrite.cli.url", "https://cloud.example.com");
    const { answers, cookies } = await visit(t.app);
    for (const cookie of cookies) assert.match(cookie, /; Secure/, cookie);
    for (const answer of answers) assert.equal(answer.headers["strict-transport-security"], HSTS);
    const api = await t.app.inject({ method: "GET", url: "/status.php" });
    assert.equal(api.headers["strict-transport-security"], HSTS, "not only pages");
  });

  it("the shipped nginx site sends the same Strict-Transport-Security as Keystream, once (Keystream's copy hidden)", () => {
    const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, "deploy/nginx", file), "utf8");
    const added = /^add_header Strict-Transport-Security "([^"]+)" always;$/m.exec(read("keystream-locations.conf"));
    assert.equal(added?.[1], HSTS);
    assert.match(read("keystream-proxy-headers.conf"), /^proxy_hide_header Strict-Transport-Security;$/m);
  });

  it("no overwrite.cli.url, or an http one, and a plain-http request: no Secure and no HSTS", async () => {
    for (const configured of [undefined, "http://cloud.example.com"]) {
      if (configured) t.services.settings.set("overwrite.cli.url", configured);
      const { answers, cookies } = await visit(t.app);
      for (const cookie of cookies) assert.doesNotMatch(cookie, /; Secure/, `${configured}: ${cookie}`);
      for (const answer of answers) assert.equal(answer.headers["strict-transport-security"], undefined, configured);
    }
  });

  it("https as a trusted proxy forwards it, without overwrite.cli.url: Secure and HSTS; the same header from an untrusted peer changes nothing", async () => {
    const proxied = await createProxiedApp(t);
    try {
      const https = { "x-forwarded-proto": "https" };
      const trusted = await visit(proxied, https);
      for (const cookie of trusted.cookies) assert.match(cookie, /; Secure/, cookie);
      for (const answer of trusted.answers) assert.equal(answer.headers["strict-transport-security"], HSTS);
      const untrusted = await visit(t.app, https);
      for (const cookie of untrusted.cookies) assert.doesNotMatch(cookie, /; Secure/, cookie);
      for (const answer of untrusted.answers) assert.equal(answer.headers["strict-transport-security"], undefined);
    } finally {
      await proxied.close();
    }
  });
});

describe("the start warns when overwrite.cli.url is https and no proxy is trusted", () => {
  /** Starts the server on the test's storage with `trustedProxies`, returns its warnings about the proxy, stops it. */
  const warningsAtStart = async (overwrite: string | undefined, trustedProxies: string[]) => {
    const storage = await createTestStorage();
    await storage.storage.close();
    if (overwrite) new HostSettings(storage.dataDir).set("overwrite.cli.url", overwrite);
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    try {
      const server = await startServer(
        {
          host: "127.0.0.1",
          port: 0,
          dataDir: storage.dataDir,
          databaseUrl: storage.databaseUrl,
          logLevel: "info",
          trustedProxies,
          timeouts: DEFAULT_SERVER_TIMEOUTS,
        },
        pino({ level: "info" }, sink),
      );
      await server.stop();
    } finally {
      await storage.cleanup();
    }
    return lines.filter((line) => line.event === "https_proxy_not_trusted");
  };

  it("https and no trusted proxy: one warning naming KEYSTREAM_TRUSTED_PROXIES; with a trusted proxy, or without https, none", async () => {
    const warned = await warningsAtStart("https://cloud.example.com", []);
    assert.equal(warned.length, 1);
    assert.equal(warned[0]?.level, 40);
    assert.match(String(warned[0]?.msg), /KEYSTREAM_TRUSTED_PROXIES/);
    assert.deepEqual(await warningsAtStart("https://cloud.example.com", ["127.0.0.1"]), []);
    assert.deepEqual(await warningsAtStart("http://cloud.example.com", []), []);
    assert.deepEqual(await warningsAtStart(undefined, []), []);
  });
});
