import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { Authenticator } from "../../src/accounts/authentication.js";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { SqlSessionStore } from "../../src/storage/stores/accounts/account-session-store.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const WHOAMI = "/ocs/v1.php/cloud/user?format=json";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

describe("request authentication: one chain (session, Basic password, Basic app password, Bearer)", () => {
  let t: TestApp;
  let aliceAppPassword: string;
  let bobAppPassword: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password", displayName: "Alice A" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
    aliceAppPassword = accepted(await t.services.appPasswords.create("alice", "phone")).secret;
    bobAppPassword = accepted(await t.services.appPasswords.create("bob", "phone")).secret;
  });
  after(() => t.close());
  beforeEach(() => {
    t.services.settings.delete("token_auth_enforced");
  });

  const whoami = async (headers: Record<string, string>, remoteAddress = "127.0.0.1") => {
    const response = await t.app.inject({ method: "GET", url: WHOAMI, headers, remoteAddress });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };
  const uidOf = (body: string) => JSON.parse(body).ocs.data.id as string;

  it("without credentials: 401 with a Basic challenge", async () => {
    const r = await whoami({});
    assert.equal(r.status, 401);
    assert.match(String(r.headers["www-authenticate"]), /^Basic realm="Keystream"/);
  });

  it("accepts the session cookie of a form login", async () => {
    const browser = new FormClient(t.app);
    await browser.login("alice", "alice password");
    const r = await whoami({ cookie: browser.cookieHeader });
    assert.equal(r.status, 200);
    assert.equal(uidOf(r.body), "alice");
    // An anonymous session row, as earlier versions wrote for the login page, is no login.
    const now = t.clock.nowSeconds();
    await new SqlSessionStore(t.testStorage.storage.db).insert({
      idHash: sha256Hex("anonymous-session"),
      uid: null,
      csrfToken: "csrf",
      createdAt: now,
      expiresAt: now + 3600,
      userAgent: null,
      lastSeenAt: now,
    });
    assert.equal((await whoami({ cookie: "ks_session=anonymous-session" })).status, 401, "an anonymous session is no login");
  });

  it("accepts Basic with the account password", async () => {
    const r = await whoami({ authorization: basic("alice", "alice password") });
    assert.equal(r.status, 200);
    assert.equal(uidOf(r.body), "alice");
  });

  it("accepts Basic with an app password of that user, and refuses it for another user", async () => {
    const ok = await whoami({ authorization: basic("alice", aliceAppPassword) });
    assert.equal(ok.status, 200);
    assert.equal(uidOf(ok.body), "alice");
    const wrongOwner = await whoami({ authorization: basic("alice", bobAppPassword) });
    assert.equal(wrongOwner.status, 401);
    assert.match(String(wrongOwner.headers["www-authenticate"]), /^Basic /);
  });

  it("bad Basic credentials: 401 with WWW-Authenticate, for every kind of mistake", async () => {
    for (const header of [
      basic("alice", "wrong password"),
      basic("nobody", "alice password"),
      basic("alice", ""),
      `Basic ${Buffer.from("no-colon").toString("base64")}`,
      "Basic !!!notbase64",
    ]) {
      const r = await whoami({ authorization: header });
      assert.equal(r.status, 401, header);
      assert.match(String(r.headers["www-authenticate"]), /^Basic realm="Keystream", charset="UTF-8"$/, header);
      assert.equal(JSON.parse(r.body).error, "invalid_credentials");
    }
  });

  it("an Authorization header wins over the session cookie (a bad header is not rescued by the cookie)", async () => {
    const browser = new FormClient(t.app);
    await browser.login("alice", "alice password");
    const r = await whoami({ cookie: browser.cookieHeader, authorization: basic("alice", "wrong password") });
    assert.equal(r.status, 401);
  });

  it("token_auth_enforced=true refuses Basic with the password; app passwords still work", async () => {
    t.services.settings.set("token_auth_enforced", true);
    const refused = await whoami({ authorization: basic("alice", "alice password") });
    assert.equal(refused.status, 401);
    assert.match(String(refused.headers["www-authenticate"]), /^Basic /);
    assert.match(JSON.parse(refused.body).error_description, /token_auth_enforced/);
    const app = await whoami({ authorization: basic("alice", aliceAppPassword) });
    assert.equal(app.status, 200);
    assert.equal(uidOf(app.body), "alice");
    // A browser session still works: the setting is about the API's Basic passwords.
    const browser = new FormClient(t.app);
    await browser.login("alice", "alice password");
    assert.equal((await whoami({ cookie: browser.cookieHeader })).status, 200);
    t.services.settings.set("token_auth_enforced", false);
    assert.equal((await whoami({ authorization: basic("alice", "alice password") })).status, 200);
  });

  it("a disabled user's session and app password stop working at once", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    const { secret } = accepted(await t.services.appPasswords.create("carol", "phone"));
    const browser = new FormClient(t.app);
    await browser.login("carol", "carol password");
    assert.equal((await whoami({ cookie: browser.cookieHeader })).status, 200);
    assert.equal((await whoami({ authorization: basic("carol", secret) })).status, 200);
    accepted(await t.services.users.setEnabled("carol", false));
    assert.equal((await whoami({ cookie: browser.cookieHeader })).status, 401);
    assert.equal((await whoami({ authorization: basic("carol", secret) })).status, 401);
    assert.equal((await whoami({ authorization: basic("carol", "carol password") })).status, 401);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303);
    accepted(await t.services.users.setEnabled("carol", true));
    assert.equal((await whoami({ authorization: basic("carol", secret) })).status, 200, "the app password was kept");
  });

  it("a revoked app password stops working", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("bob", "old laptop"));
    assert.equal((await whoami({ authorization: basic("bob", secret) })).status, 200);
    await t.services.appPasswords.revoke("bob", appPassword.id);
    assert.equal((await whoami({ authorization: basic("bob", secret) })).status, 401);
  });

  it("Bearer: invalid_token until a resolver is plugged in, then the resolver decides", async () => {
    const before = await whoami({ authorization: "Bearer some-token" });
    assert.equal(before.status, 401);
    assert.match(String(before.headers["www-authenticate"]), /^Bearer realm="Keystream", error="invalid_token"$/);
    // The chain is built with its resolver: this app's routes read `services.authenticator` per request.
    const { users, appPasswords, sessions, settings, secondFactors } = t.services;
    t.services.authenticator = new Authenticator(users, appPasswords, sessions, settings, {
      secondFactors,
      bearer: {
        resolve: async (token) =>
          token === "good-token" ? { user: accepted(await t.services.users.require("bob")), clientId: "client-1" } : undefined,
      },
    });
    const ok = await whoami({ authorization: "Bearer good-token" });
    assert.equal(ok.status, 200);
    assert.equal(uidOf(ok.body), "bob");
    assert.equal((await whoami({ authorization: "Bearer bad-token" })).status, 401);
    const principal = await t.services.authenticator.authenticate("Bearer good-token", undefined);
    assert.ok("principal" in principal && principal.principal.method === "bearer" && principal.principal.clientId === "client-1");
  });

  it("an unknown scheme is refused", async () => {
    assert.equal((await whoami({ authorization: "Digest username=alice" })).status, 401);
  });

  it("failed Basic attempts are throttled like the login form, per user", async () => {
    accepted(await t.services.users.create({ uid: "dora", password: "dora password" }));
    t.sleeps.length = 0;
    for (let i = 0; i < 3; i++) await whoami({ authorization: basic("dora", "guess") }, "198.51.100.1");
    assert.deepEqual(t.sleeps, [200, 400], "no delay before the first attempt, then doubling");
    t.sleeps.length = 0;
    // From another address the user's own count still applies.
    assert.equal((await whoami({ authorization: basic("dora", "dora password") }, "198.51.100.2")).status, 200);
    assert.deepEqual(t.sleeps, [800]);
    t.sleeps.length = 0;
    assert.equal((await whoami({ authorization: basic("dora", "dora password") }, "198.51.100.3")).status, 200);
    assert.deepEqual(t.sleeps, [], "a success reset the user's count");
  });
});
