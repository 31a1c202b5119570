import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LOGIN_THROTTLE, TOKEN_THROTTLE } from "../../src/security/domain/throttle-policy.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { basic, createOAuthTestApp, exchangeCode, issueCode, PASSWORD, TOKEN, WEB_CLIENT } from "../oauth/support.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/**
 * issue 5: brute-force throttling of the token endpoint per IP (and of the login form and HTTP
 * Basic per IP and user): exponential delay through the app's injectable sleep (recorded, never
 * slept), state in the database (so a second node sees it), reset on success, and 429 with
 * Retry-After past the hard ceiling.
 */
describe("token endpoint throttle (per IP, shared through the database)", () => {
  let t: TestApp;
  let secondStorage: Storage;
  let nodeB: Awaited<ReturnType<typeof createAppOn>>;

  const tokenFrom = (app: TestApp["app"], ip: string, form: Record<string, string>, authorization?: string) =>
    app.inject({
      method: "POST",
      url: TOKEN,
      remoteAddress: ip,
      headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
      payload: new URLSearchParams(form).toString(),
    });
  const wrongSecret = (app: TestApp["app"], ip: string) =>
    tokenFrom(app, ip, { grant_type: "authorization_code", code: "x", redirect_uri: "y" }, basic(WEB_CLIENT.clientId, "wrong"));

  before(async () => {
    t = await createOAuthTestApp();
    secondStorage = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    nodeB = await createAppOn(secondStorage, t.testStorage.dataDir, t.clock);
  });
  after(async () => {
    await nodeB.app.close();
    await secondStorage.close();
    await t.close();
  });

  it("failures delay the next attempt exponentially, also on the other node; other addresses owe nothing", async () => {
    const ip = "192.0.2.10";
    t.sleeps.length = 0;
    for (let i = 0; i < 4; i++) assert.equal((await wrongSecret(t.app, ip)).statusCode, 401);
    assert.deepEqual(t.sleeps, [100, 200, 400], "nothing before the first failure, then 100 · 2^(n-1) ms");
    nodeB.sleeps.length = 0;
    await wrongSecret(nodeB.app, ip);
    assert.deepEqual(nodeB.sleeps, [800], "node B sees node A's four failures");
    nodeB.sleeps.length = 0;
    await wrongSecret(nodeB.app, "192.0.2.11");
    assert.deepEqual(nodeB.sleeps, []);
  });

  it("unknown codes count; a success resets the address", async () => {
    const ip = "192.0.2.20";
    const code = await issueCode(t);
    await tokenFrom(
      t.app,
      ip,
      { grant_type: "authorization_code", code: "unknown-code", redirect_uri: WEB_CLIENT.redirectUri },
      basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
    );
    t.sleeps.length = 0;
    const ok = await tokenFrom(
      t.app,
      ip,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
      basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
    );
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(t.sleeps, [100], "one failure owed 100 ms");
    t.sleeps.length = 0;
    await wrongSecret(t.app, ip);
    assert.deepEqual(t.sleeps, [], "the success reset the count");
  });

  it("malformed requests and expired codes are not counted (only what guessing produces)", async () => {
    const ip = "192.0.2.30";
    const code = await issueCode(t);
    t.clock.advance(600);
    const expired = await tokenFrom(
      t.app,
      ip,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
      basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
    );
    assert.equal(expired.json().error_description, "auth grant expired");
    await tokenFrom(t.app, ip, { grant_type: "authorization_code" });
    t.sleeps.length = 0;
    await wrongSecret(t.app, ip);
    assert.deepEqual(t.sleeps, []);
  });

  it(`past ${TOKEN_THROTTLE.lockoutAfterFailures} failures: 429 with Retry-After, even with good credentials, until the lockout ends`, async () => {
    const ip = "192.0.2.40";
    for (let i = 0; i < TOKEN_THROTTLE.lockoutAfterFailures; i++) await wrongSecret(t.app, ip);
    assert.ok(t.sleeps.includes(TOKEN_THROTTLE.maxDelayMs), "the delay reached its cap on the way");
    const code = await issueCode(t);
    const form = { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri };
    const locked = await tokenFrom(nodeB.app, ip, form, basic(WEB_CLIENT.clientId, WEB_CLIENT.secret));
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.headers["retry-after"], String(TOKEN_THROTTLE.lockoutSeconds));
    assert.equal(locked.json().error, "temporarily_unavailable");
    for (const path of ["/index.php/apps/oauth2/api/v1/revoke", "/index.php/apps/oauth2/api/v1/introspect"]) {
      const response = await t.app.inject({
        method: "POST",
        url: path,
        remoteAddress: ip,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
        },
        payload: "token=x",
      });
      assert.equal(response.statusCode, 429, path);
    }
    t.clock.advance(100);
    assert.equal(
      (await tokenFrom(t.app, ip, form, basic(WEB_CLIENT.clientId, WEB_CLIENT.secret))).headers["retry-after"],
      String(TOKEN_THROTTLE.lockoutSeconds - 100),
    );
    t.clock.advance(TOKEN_THROTTLE.lockoutSeconds - 100);
    t.sleeps.length = 0;
    const after = await tokenFrom(t.app, ip, form, basic(WEB_CLIENT.clientId, WEB_CLIENT.secret));
    assert.equal(after.statusCode, 200, "handled again once the lockout ended");
    assert.deepEqual(t.sleeps, [TOKEN_THROTTLE.maxDelayMs], "after the capped delay");
  });
});

describe("login throttle ceiling (form and HTTP Basic)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD }));
  });
  after(() => t.close());

  it(`the login form answers 429 with Retry-After from ${LOGIN_THROTTLE.lockoutAfterFailures} failures for that user, from any address`, async () => {
    for (let i = 0; i < LOGIN_THROTTLE.lockoutAfterFailures; i++) {
      await new FormClient(t.app, `198.51.100.${i + 1}`).login("bob", "wrong password");
    }
    const locked = await new FormClient(t.app, "203.0.113.200").login("bob", PASSWORD);
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.headers["retry-after"], String(LOGIN_THROTTLE.lockoutSeconds));
    assert.match(locked.body, /Too many failed login attempts/);
    assert.match(String(locked.headers["content-type"]), /^text\/html/);
    const basicAttempt = await t.app.inject({
      method: "GET",
      url: "/index.php/apps/oauth2/api/v1/userinfo",
      remoteAddress: "203.0.113.201",
      headers: { authorization: basic("bob", PASSWORD) },
    });
    assert.equal(basicAttempt.statusCode, 429, "HTTP Basic shares the per-user count");
    assert.ok(Number(basicAttempt.headers["retry-after"]) > 0);
    t.clock.advance(LOGIN_THROTTLE.lockoutSeconds);
    const again = await new FormClient(t.app, "203.0.113.202").login("bob", PASSWORD);
    assert.equal(again.statusCode, 303, "after the lockout the right password works");
    const alice = await new FormClient(t.app, "203.0.113.203").login("alice", PASSWORD);
    assert.equal(alice.statusCode, 303, "other users were never affected");
  });

  it("a successful login resets the user's count", async () => {
    accepted(await t.services.users.create({ uid: "cleo", password: PASSWORD }));
    for (let i = 0; i < 3; i++) await new FormClient(t.app, "198.51.100.150").login("cleo", "wrong");
    await new FormClient(t.app, "198.51.100.151").login("cleo", PASSWORD);
    t.sleeps.length = 0;
    await new FormClient(t.app, "198.51.100.152").login("cleo", PASSWORD);
    assert.deepEqual(t.sleeps, []);
  });

  it("a code exchange from a throttled login address is unaffected (separate buckets)", async () => {
    const code = await issueCode(t);
    assert.equal((await exchangeCode(t, code)).statusCode, 200);
  });
});
