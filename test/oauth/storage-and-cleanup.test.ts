import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import pino from "pino";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { loadOrCreateKey, SecretBox } from "../../src/crypto/secret-box.js";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import { createServices } from "../../src/services.js";
import { CLIENT_SECRET_KEY_FILE } from "../../src/wiring/foundation.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { createTestStorage } from "../support/storage.js";
import { createOAuthTestApp, exchangeCode, issueCode, refresh, userinfo, WEB_CLIENT } from "./support.js";

const WEEK = 7 * 86_400;

describe("client storage", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("stores secrets AES-256-GCM encrypted with a key file in the data directory (mode 0600)", async () => {
    const row = await t.services.storage.db
      .selectFrom("oauth2_clients")
      .select("secret_encrypted")
      .where("client_id", "=", WEB_CLIENT.clientId)
      .executeTakeFirstOrThrow();
    assert.ok(!row.secret_encrypted.includes(WEB_CLIENT.secret));
    const keyFile = path.join(t.testStorage.dataDir, CLIENT_SECRET_KEY_FILE);
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    const box = new SecretBox(loadOrCreateKey(t.testStorage.dataDir, CLIENT_SECRET_KEY_FILE));
    assert.equal(box.decrypt(row.secret_encrypted), WEB_CLIENT.secret);
    assert.throws(() => new SecretBox(Buffer.alloc(32, 7)).decrypt(row.secret_encrypted), "another key cannot open it");
    // Change the second-to-last character (the last one of base64url may carry padding bits only).
    const sealed = row.secret_encrypted;
    const tampered = `${sealed.slice(0, -2)}${sealed.at(-2) === "A" ? "B" : "A"}${sealed.at(-1)}`;
    assert.throws(() => box.decrypt(tampered), "a tampered envelope is refused");
  });

  it("seeds ownCloud's three default clients once; a removed default does not come back", async () => {
    const seeded = (await t.services.oauth.clients.list()).filter((c) => DEFAULT_CLIENTS.some((d) => d.clientId === c.clientId));
    assert.deepEqual(
      seeded.map((c) => [c.name, c.redirectUri, c.secret, c.trusted]),
      DEFAULT_CLIENTS.map((d) => [d.name, d.redirectUri, d.secret, false]),
    );
    const android = DEFAULT_CLIENTS[1];
    assert.ok(android);
    assert.ok((await t.services.oauth.clients.removeByClientId(android.clientId)).ok);
    const again = createServices({
      storage: t.services.storage,
      dataDir: t.testStorage.dataDir,
      clock: t.clock,
      log: pino({ level: "silent" }),
    });
    assert.equal(
      (await again.oauth.clients.list()).some((c) => c.name === "Android"),
      false,
    );
  });

  it("two nodes seeding a fresh database at once write each default exactly once", async () => {
    const storage = await createTestStorage();
    try {
      const node = () =>
        createServices({
          storage: storage.storage,
          dataDir: storage.dataDir,
          clock: new ManualClock(),
          settings: new HostSettings(storage.dataDir),
          log: pino({ level: "silent" }),
        });
      const [a, b] = await Promise.all([node().oauth.clients.list(), node().oauth.clients.list()]);
      assert.equal(a.length + b.length > 0, true);
      const rows = await storage.storage.db.selectFrom("oauth2_clients").select("name").execute();
      assert.deepEqual(rows.map((r) => r.name).sort(), ["Android", "Desktop Client", "iOS"]);
    } finally {
      await storage.cleanup();
    }
  });

  it("deleting a user deletes their grants, codes and tokens", async () => {
    accepted(await t.services.users.create({ uid: "gone", password: "gone password!" }));
    const { loggedIn, consent, authorizeUrl } = await import("./support.js");
    const browser = await loggedIn(t, "gone", "gone password!");
    const code = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    const tokens = (await exchangeCode(t, code)).json();
    accepted(await t.services.users.delete("gone"));
    const grants = await t.services.storage.db.selectFrom("oauth2_grants").selectAll().where("uid", "=", "gone").execute();
    assert.equal(grants.length, 0);
    assert.equal(await t.services.oauth.resolve(tokens.access_token), undefined);
  });
});

describe("cleanup (oauth2:cleanup: one week after expiry)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const count = async (table: "oauth2_codes" | "oauth2_access_tokens" | "oauth2_refresh_tokens" | "oauth2_grants") =>
    (await t.services.storage.db.selectFrom(table).selectAll().execute()).length;

  it("keeps expired items (rejected) for a week, then deletes them; live ones stay", async () => {
    const code = await issueCode(t);
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    t.clock.advance(3600);
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 401, "expired, still stored, rejected");
    assert.deepEqual(await t.services.oauth.cleanup(), {
      deviceCodes: 0,
      codes: 0,
      accessTokens: 0,
      refreshTokens: 0,
      grants: 0,
    });
    assert.equal((await exchangeCode(t, code)).json().error_description, "auth grant expired");

    // the code expired at +600 s, the access token at +3600 s: a week later both go.
    t.clock.advance(WEEK - 3600 + 600); // now: 600 s + a week after issue
    const first = await t.services.oauth.cleanup();
    assert.equal(first.codes, 2, "the expired code and the redeemed one");
    assert.equal(first.accessTokens, 0, "the access token is 3000 s short of a week past expiry");
    assert.equal(first.grants, 1, "the grant of the never-redeemed code is left empty and goes");
    t.clock.advance(3600 - 600); // now: 3600 s + a week after issue
    const second = await t.services.oauth.cleanup();
    assert.equal(second.accessTokens, 1);
    assert.equal(second.refreshTokens, 0, "the refresh token lives 90 days");
    assert.equal(second.grants, 0, "the other grant still has its refresh token");
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200, "a refresh token survives its access token's cleanup");
  });

  it("deletes an expired refresh token a week after its expiry, a rotated one a week after rotation", async () => {
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    const rotated = (await refresh(t, tokens.refresh_token)).json();
    const before = await count("oauth2_refresh_tokens");
    t.clock.advance(WEEK);
    assert.equal((await t.services.oauth.cleanup()).refreshTokens >= 1, true, "the rotated-out token");
    t.clock.advance(90 * 86_400 - WEEK);
    assert.equal((await refresh(t, rotated.refresh_token)).json().error_description, "refresh token expired");
    t.clock.advance(WEEK - 1);
    await t.services.oauth.cleanup();
    const stillThere = await t.services.storage.db.selectFrom("oauth2_refresh_tokens").select("id").execute();
    assert.ok(stillThere.length >= 1, "kept until a full week after expiry");
    t.clock.advance(1);
    await t.services.oauth.cleanup();
    assert.ok((await count("oauth2_refresh_tokens")) < before);
    assert.equal(await count("oauth2_refresh_tokens"), 0);
    assert.equal(await count("oauth2_grants"), 0, "grants left empty are gone too");
  });

  it("runs as the daily oauth2:cleanup job, one node at a time, on its configured interval", async () => {
    await issueCode(t);
    t.clock.advance(600 + WEEK);
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("oauth2:cleanup"));
    assert.equal(await count("oauth2_codes"), 0);
    assert.equal((await t.services.jobs.runDueJobs()).includes("oauth2:cleanup"), false, "not due again yet");
    t.clock.advance(86_400);
    assert.ok((await t.services.jobs.runDueJobs()).includes("oauth2:cleanup"), "due a day later");
    t.services.settings.set("oauth2.cleanup_interval", 3600);
    try {
      t.clock.advance(3600);
      assert.ok((await t.services.jobs.runDueJobs()).includes("oauth2:cleanup"), "the interval follows the setting");
    } finally {
      t.services.settings.delete("oauth2.cleanup_interval");
    }
  });
});
