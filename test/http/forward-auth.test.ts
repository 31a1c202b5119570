import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/app.js";
import { FORWARD_AUTH_PATH } from "../../src/http/routes/forward-auth.js";
import { LOGIN_THROTTLE } from "../../src/security/domain/throttle-policy.js";
import { basic, createOAuthTestApp, exchangeCode, issueCode, PASSWORD, USERINFO, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/**
 * Forward authentication for reverse proxies. `GET …/api/v1/auth-request` says who the
 * original request's Authorization header is (200 with X-Keystream-User / X-Keystream-Display-Name)
 * or refuses it (401 with a Bearer challenge, 429 while the login throttle holds the sender), with
 * the one authentication chain of the API, its cookie aside.
 */

const BEARER_CHALLENGE = 'Bearer realm="Keystream"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="Keystream", error="invalid_token"';

function forwardAuth(
  app: FastifyInstance,
  headers: Record<string, string>,
  options: { method?: "GET" | "HEAD"; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method: options.method ?? "GET", url: FORWARD_AUTH_PATH, headers, remoteAddress: options.remoteAddress });
}

/** A 401 as the proxy passes it on: the Bearer challenge, nothing to cache, no body. */
function assertRefused(response: LightMyRequestResponse, challenge = BEARER_CHALLENGE, what = ""): void {
  assert.equal(response.statusCode, 401, `${what} ${response.body}`);
  assert.equal(response.headers["www-authenticate"], challenge, what);
  assert.equal(response.headers["x-keystream-user"], undefined, what);
  assert.equal(response.headers["cache-control"], "no-store", what);
  assert.equal(response.body, "", what);
}

function assertAccepted(response: LightMyRequestResponse, uid: string): void {
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers["x-keystream-user"], uid);
  assert.equal(response.headers["cache-control"], "no-store");
  assert.equal(response.body, "");
}

describe("forward authentication (auth-request)", () => {
  let t: TestApp;
  let accessToken: string;
  let aliceAppPassword: string;
  let bobAppPassword: string;

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: "bob password", displayName: "Bob" }));
    accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
    aliceAppPassword = accepted(await t.services.appPasswords.create("alice", "file sync")).secret;
    bobAppPassword = accepted(await t.services.appPasswords.create("bob", "file sync")).secret;
  });
  after(() => t.close());
  beforeEach(() => {
    t.services.settings.delete("token_auth_enforced");
  });

  it("a live bearer access token is accepted: 200 with the user's id and display name, an empty body, never cached", async () => {
    const response = await forwardAuth(t.app, { authorization: `Bearer ${accessToken}` });
    assertAccepted(response, "alice");
    assert.equal(response.headers["x-keystream-display-name"], "Alice%20Liddell");
  });

  it("HEAD answers as GET does, without a body", async () => {
    assertAccepted(await forwardAuth(t.app, { authorization: `Bearer ${accessToken}` }, { method: "HEAD" }), "alice");
    assertRefused(await forwardAuth(t.app, {}, { method: "HEAD" }));
  });

  it("an app password is accepted with HTTP Basic for the user it belongs to, and refused for another user name", async () => {
    assertAccepted(await forwardAuth(t.app, { authorization: basic("alice", aliceAppPassword) }), "alice");
    assertAccepted(await forwardAuth(t.app, { authorization: basic("bob", bobAppPassword) }), "bob");
    assertRefused(await forwardAuth(t.app, { authorization: basic("alice", bobAppPassword) }));
  });

  it("the account password is accepted with HTTP Basic unless token_auth_enforced, which refuses it but not app passwords or tokens", async () => {
    assertAccepted(await forwardAuth(t.app, { authorization: basic("alice", PASSWORD) }), "alice");
    t.services.settings.set("token_auth_enforced", true);
    assertRefused(await forwardAuth(t.app, { authorization: basic("alice", PASSWORD) }));
    assertAccepted(await forwardAuth(t.app, { authorization: basic("alice", aliceAppPassword) }), "alice");
    assertAccepted(await forwardAuth(t.app, { authorization: `Bearer ${accessToken}` }), "alice");
  });

  it("wrong credentials are refused with the Bearer challenge (so the ownCloud client still picks OAuth2)", async () => {
    assertRefused(await forwardAuth(t.app, { authorization: basic("alice", "wrong password") }));
    assertRefused(await forwardAuth(t.app, { authorization: basic("nobody", PASSWORD) }));
    assertRefused(
      await forwardAuth(t.app, { authorization: `Bearer ${"x".repeat(accessToken.length)}` }),
      INVALID_TOKEN_CHALLENGE,
    );
  });

  it("without an Authorization header: 401 with the Bearer challenge and no error code (RFC 6750 §3.1)", async () => {
    assertRefused(await forwardAuth(t.app, {}));
  });

  it("the session cookie of a logged-in browser is ignored: only the Authorization header authenticates", async () => {
    const browser = new FormClient(t.app);
    assert.equal((await browser.login("alice", PASSWORD)).statusCode, 303);
    assert.equal(
      (await t.app.inject({ method: "GET", url: USERINFO, headers: { cookie: browser.cookieHeader } })).statusCode,
      200,
    );
    assertRefused(await forwardAuth(t.app, { cookie: browser.cookieHeader }));
  });

  it("garbage Authorization headers are refused with the Bearer challenge: bad base64, no colon, unknown scheme, no credentials, huge values", async () => {
    const huge = "A".repeat(12 * 1024);
    for (const header of [
      "Basic !!!not-base64!!!",
      `Basic ${Buffer.from("no-colon-here").toString("base64")}`,
      "Basic",
      "Basic ",
      "Bearer",
      "Bearer ",
      `Bearer ${accessToken} trailing`,
      `Digest username="alice", realm="Keystream"`,
      `Negotiate ${Buffer.from("x").toString("base64")}`,
      "\u00e9\u00e9\u00e9",
      ":",
      `Bearer ${huge}`,
      `Basic ${huge}`,
      basic(huge, huge),
      basic("alice", huge),
    ]) {
      const response = await forwardAuth(t.app, { authorization: header });
      const what = header.slice(0, 60);
      assert.equal(response.statusCode, 401, what);
      assert.match(String(response.headers["www-authenticate"]), /^Bearer realm="Keystream"/, what);
      assert.equal(response.body, "", what);
    }
  });

  it("a revoked access token is refused with invalid_token", async () => {
    const token = (await exchangeCode(t, await issueCode(t))).json().access_token;
    assertAccepted(await forwardAuth(t.app, { authorization: `Bearer ${token}` }), "alice");
    const client = await t.services.oauth.findClient(WEB_CLIENT.clientId);
    assert.ok(client);
    assert.ok(await t.services.oauth.revoke("alice", client.id));
    assertRefused(await forwardAuth(t.app, { authorization: `Bearer ${token}` }), INVALID_TOKEN_CHALLENGE);
    accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
  });

  it("an expired access token is refused with invalid_token (the clock decides)", async () => {
    const response = await exchangeCode(t, await issueCode(t));
    const { access_token: token, expires_in: expiresIn } = response.json();
    t.clock.advance(expiresIn - 1);
    assertAccepted(await forwardAuth(t.app, { authorization: `Bearer ${token}` }), "alice");
    t.clock.advance(1);
    assertRefused(await forwardAuth(t.app, { authorization: `Bearer ${token}` }), INVALID_TOKEN_CHALLENGE);
  });

  it("a revoked app password is refused", async () => {
    const { appPassword, secret } = accepted(await t.services.appPasswords.create("bob", "to revoke"));
    assertAccepted(await forwardAuth(t.app, { authorization: basic("bob", secret) }), "bob");
    assert.ok(await t.services.appPasswords.revoke("bob", appPassword.id));
    assertRefused(await forwardAuth(t.app, { authorization: basic("bob", secret) }));
  });

  it("a disabled user is refused with every credential (token, app password, password), and accepted again once enabled", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: PASSWORD, displayName: "Carol" }));
    const { secret } = accepted(await t.services.appPasswords.create("carol", "phone"));
    const aliceToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
    accepted(await t.services.users.setEnabled("alice", false));
    accepted(await t.services.users.setEnabled("carol", false));
    try {
      assertRefused(await forwardAuth(t.app, { authorization: `Bearer ${aliceToken}` }), INVALID_TOKEN_CHALLENGE);
      assertRefused(await forwardAuth(t.app, { authorization: basic("carol", secret) }));
      assertRefused(await forwardAuth(t.app, { authorization: basic("carol", PASSWORD) }));
    } finally {
      accepted(await t.services.users.setEnabled("alice", true));
      accepted(await t.services.users.setEnabled("carol", true));
    }
    assertAccepted(await forwardAuth(t.app, { authorization: `Bearer ${aliceToken}` }), "alice");
    assertAccepted(await forwardAuth(t.app, { authorization: basic("carol", secret) }), "carol");
  });

  it("the display name is UTF-8 percent-encoded, and decodes back to the name", async () => {
    const displayName = 'Zoë Ångström 山田 "Q" 100% ☃, a;b\r\nx';
    accepted(await t.services.users.create({ uid: "zoe", password: PASSWORD, displayName }));
    const { secret } = accepted(await t.services.appPasswords.create("zoe", "laptop"));
    const response = await forwardAuth(t.app, { authorization: basic("zoe", secret) });
    assertAccepted(response, "zoe");
    const header = String(response.headers["x-keystream-display-name"]);
    assert.match(header, /^[A-Za-z0-9%\-_.!~*'()]+$/, "only unreserved ASCII and %XX");
    assert.equal(header, "Zo%C3%AB%20%C3%85ngstr%C3%B6m%20%E5%B1%B1%E7%94%B0%20%22Q%22%20100%25%20%E2%98%83%2C%20a%3Bb%0D%0Ax");
    assert.equal(decodeURIComponent(header), displayName);
  });
});

describe("forward authentication is throttled like HTTP Basic logins", () => {
  let t: TestApp;
  /** Keystream behind a proxy at 127.0.0.1: the client address is the one X-Forwarded-For names. */
  let proxied: FastifyInstance;
  let sleeps: number[];
  let aliceAppPassword: string;
  let accessToken: string;

  before(async () => {
    t = await createOAuthTestApp();
    for (const uid of ["bob", "carol", "dave"]) accepted(await t.services.users.create({ uid, password: PASSWORD }));
    aliceAppPassword = accepted(await t.services.appPasswords.create("alice", "file sync")).secret;
    accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
    sleeps = [];
    proxied = await buildApp({
      services: t.services,
      trustedProxies: ["127.0.0.1"],
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await proxied.ready();
  });
  after(async () => {
    await proxied.close();
    await t.close();
  });

  const from = (clientAddress: string, authorization: string) =>
    forwardAuth(proxied, { authorization, "x-forwarded-for": clientAddress }, { remoteAddress: "127.0.0.1" });

  it("a wrong account password counts as a failure for the forwarded client address and for the user: their next attempts wait", async () => {
    assertRefused(await from("198.51.100.7", basic("bob", "wrong")));
    sleeps.length = 0;
    assertAccepted(await from("198.51.100.7", basic("carol", PASSWORD)), "carol");
    assert.deepEqual(sleeps, [200], "the address's one failure: 200 ms");
    sleeps.length = 0;
    assertAccepted(await from("198.51.100.8", basic("bob", PASSWORD)), "bob");
    assert.deepEqual(sleeps, [200], "the user's one failure, from any address");
    sleeps.length = 0;
    assertAccepted(await from("198.51.100.9", basic("dave", PASSWORD)), "dave");
    assert.deepEqual(sleeps, [], "another address and another user owe nothing");
  });

  it("a refused app password or bearer token counts nothing (they cannot be guessed), as on every API route", async () => {
    for (let i = 0; i < 3; i++) {
      assertRefused(await from("198.51.100.20", basic("alice", "y".repeat(72))));
      assertRefused(await from("198.51.100.20", `Bearer ${"z".repeat(accessToken.length)}`), INVALID_TOKEN_CHALLENGE);
    }
    const failures = await t.services.storage.db
      .selectFrom("throttle")
      .select("failures")
      .where("bucket", "=", `${LOGIN_THROTTLE.namespace}:ip:198.51.100.20`)
      .executeTakeFirst();
    assert.equal(Number(failures?.failures ?? 0), 3, "the three wrong passwords count; the three tokens do not");
  });

  it("past the ceiling: 429 with Retry-After and an empty body, the correct password not even checked; tokens and app passwords still pass", async () => {
    const address = "203.0.113.44";
    for (let i = 0; i < LOGIN_THROTTLE.lockoutAfterFailures; i++) {
      assertRefused(await from(address, basic(`guess${i}`, "wrong")));
    }
    const refused = await from(address, basic("dave", PASSWORD));
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers["retry-after"]) > 0, String(refused.headers["retry-after"]));
    assert.equal(refused.headers["cache-control"], "no-store");
    assert.equal(refused.headers["x-keystream-user"], undefined);
    assert.equal(refused.body, "");
    assertAccepted(await from(address, basic("alice", aliceAppPassword)), "alice");
    assertAccepted(await from(address, `Bearer ${accessToken}`), "alice");
    assertAccepted(await from("203.0.113.45", basic("dave", PASSWORD)), "dave");
  });
});

describe("forward authentication per site: the groups a site requires (?group=)", () => {
  let t: TestApp;
  let alice: string;
  let bob: string;

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: "bob password", displayName: "Bob" }));
    accepted(await t.services.groups.create("editors"));
    accepted(await t.services.groups.create("wiki"));
    accepted(await t.services.groups.addMember("editors", "bob"));
    alice = basic("alice", accepted(await t.services.appPasswords.create("alice", "site")).secret);
    bob = basic("bob", accepted(await t.services.appPasswords.create("bob", "site")).secret);
  });
  after(() => t.close());

  const site = (query: string, authorization: string) =>
    t.app.inject({ method: "GET", url: `${FORWARD_AUTH_PATH}?${query}`, headers: { authorization } });

  it("a user in none of the site's groups is refused with 403 (not 401, so the proxy asks no other credentials)", async () => {
    const refused = await site("group=editors", alice);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers["www-authenticate"], undefined);
    assert.equal(refused.headers["x-keystream-user"], undefined);
    assert.equal(refused.body, "");
    assertAccepted(await site("group=editors", bob), "bob");
  });

  it("several groups, repeated or comma-separated: a member of any one of them passes", async () => {
    accepted(await t.services.groups.addMember("wiki", "alice"));
    for (const query of ["group=editors&group=wiki", "group=editors,wiki", "group=editors%2C%20wiki"]) {
      assertAccepted(await site(query, alice), "alice");
      assertAccepted(await site(query, bob), "bob");
    }
    assert.equal((await site("group=editors", alice)).statusCode, 403);
    accepted(await t.services.groups.removeMember("wiki", "alice"));
    assert.equal((await site("group=editors,wiki", alice)).statusCode, 403, "membership is read at each request");
  });

  it("bad credentials are still 401 before any group is looked at; a site without group admits every user", async () => {
    assertRefused(await site("group=editors", basic("alice", "wrong")));
    assertAccepted(await site("scope=files", alice), "alice");
  });
});
