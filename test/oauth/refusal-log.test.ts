import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { createServices } from "../../src/services.js";
import { createTestStorage, type TestStorage, testDatabaseDialect } from "../support/storage.js";
import { TOKEN, WEB_CLIENT } from "./support.js";

describe(`token endpoint refusals in the log (${testDatabaseDialect})`, () => {
  let storage: TestStorage;
  let app: FastifyInstance;
  const lines: Array<Record<string, unknown>> = [];
  let raw = "";

  before(async () => {
    storage = await createTestStorage();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        raw += String(chunk);
        for (const line of String(chunk)
          .split("\n")
          .filter((text) => text !== ""))
          lines.push(JSON.parse(line));
        done();
      },
    });
    const services = createServices({
      storage: storage.storage,
      dataDir: storage.dataDir,
      clock: new ManualClock(),
      settings: new HostSettings(storage.dataDir),
      log: pino({ level: "info" }, sink),
    });
    const added = await services.oauth.clients.add({
      name: WEB_CLIENT.name,
      clientId: WEB_CLIENT.clientId,
      secret: WEB_CLIENT.secret,
      redirectUri: WEB_CLIENT.redirectUri,
      allowSubdomains: "false",
      trusted: "false",
      forceTrust: undefined,
    });
    assert.ok(added.ok);
    app = await buildApp({ services, sleep: async () => {} });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await storage.cleanup();
  });

  it("a token endpoint refusal is logged with its error and the reason, the client and grant type named, never a secret", async () => {
    const guessed = "guessed-secret-0123456789abcdefghijklmnop";
    const response = await app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        grant_type: "authorization_code",
        code: "c".repeat(64),
        redirect_uri: WEB_CLIENT.redirectUri,
        client_id: WEB_CLIENT.clientId,
        client_secret: guessed,
      }).toString(),
    });
    assert.equal(response.statusCode, 401);
    const refused = lines.find((line) => line.event === "oauth2_request_refused");
    assert.ok(refused, raw);
    assert.equal(refused.error, "invalid_client");
    assert.equal(refused.detail, "wrong client_secret in the body");
    assert.equal(refused.client, WEB_CLIENT.clientId);
    assert.equal(refused.grantType, "authorization_code");
    assert.equal(refused.level, 30, "info: the client's mistake, not the server's");
    assert.ok(!raw.includes(guessed), "the presented secret is in no log line");
    assert.ok(!raw.includes(WEB_CLIENT.secret), "the client's secret is in no log line");
    assert.ok(!raw.includes("c".repeat(64)), "the presented code is in no log line");
  });
});
