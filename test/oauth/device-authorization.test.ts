import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { verifyIdToken } from "../oidc/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import {
  addClient,
  basic,
  createOAuthTestApp,
  loggedIn,
  PASSWORD,
  refresh,
  type TestClient,
  tokenRequest,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

/**
 * The OAuth 2.0 Device Authorization Grant (RFC 8628) through HTTP: the device authorization
 * endpoint, the verification page a logged-in person uses, and the token endpoint's polls.
 */

const DEVICE_AUTHORIZATION = "/index.php/apps/oauth2/api/v1/device_authorization";
const VERIFICATION = "/index.php/apps/oauth2/device";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

const OTHER_CLIENT: TestClient = {
  name: "Other App",
  clientId: "otherappclientid0123456789abcdefghijklmnopqrs",
  secret: "otherappsecret0123456789abcdefghijklmnopqrstuvw",
  redirectUri: "https://other.example.com/callback",
};

interface Started {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

function form(t: TestApp, url: string, body: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url,
    payload: new URLSearchParams(body).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

async function startDevice(t: TestApp, body: Record<string, string> = {}, client: TestClient = WEB_CLIENT): Promise<Started> {
  const response = await form(t, DEVICE_AUTHORIZATION, body, { authorization: basic(client.clientId, client.secret) });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

function poll(t: TestApp, deviceCode: string, client: TestClient = WEB_CLIENT): Promise<LightMyRequestResponse> {
  return tokenRequest(
    t,
    { grant_type: DEVICE_GRANT, device_code: deviceCode },
    { authorization: basic(client.clientId, client.secret) },
  );
}

function errorOf(response: LightMyRequestResponse): string {
  return response.json().error;
}

/** The verification page's path and query of an absolute URI the endpoint answered. */
function pathOf(uri: string): string {
  const url = new URL(uri);
  return `${url.pathname}${url.search}`;
}

/** Submits a user code on the page (and a decision, when given); the page answered. */
async function submitCode(browser: FormClient, userCode: string, decision?: "approve" | "deny"): Promise<LightMyRequestResponse> {
  const page = await browser.get(VERIFICATION);
  assert.equal(page.statusCode, 200, page.body);
  return browser.post(VERIFICATION, {
    requesttoken: requestTokenOf(page.body),
    user_code: userCode,
    ...(decision ? { decision } : {}),
  });
}

/** Enters the code, then answers the confirmation with `decision`. */
async function decide(browser: FormClient, userCode: string, decision: "approve" | "deny"): Promise<LightMyRequestResponse> {
  const confirmation = await submitCode(browser, userCode);
  assert.equal(confirmation.statusCode, 200, confirmation.body);
  assert.match(confirmation.body, /id="device-consent"/);
  return browser.post(VERIFICATION, {
    requesttoken: requestTokenOf(confirmation.body),
    user_code: userCode,
    decision,
  });
}

describe("device authorization grant (RFC 8628)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, OTHER_CLIENT);
    await addClient(t, {
      name: "Synced App",
      clientId: "syncedappclientid0123456789abcdefghijklmnopq",
      secret: "syncedappsecret0123456789abcdefghijklmnopqrstu",
      redirectUri: "http://localhost:*",
      accountAccess: true,
    });
  });
  after(() => t.close());

  it("the full flow: the page approves, polls get authorization_pending and slow_down, then the code grant's tokens", async () => {
    const response = await form(
      t,
      DEVICE_AUTHORIZATION,
      { scope: "openid profile offline_access" },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers["cache-control"], "no-store");
    const started: Started = response.json();
    assert.match(started.user_code, USER_CODE);
    assert.match(started.device_code, /^[A-Za-z0-9]{64}$/);
    assert.equal(started.verification_uri, "http://localhost:80/index.php/apps/oauth2/device");
    assert.equal(started.verification_uri_complete, `${started.verification_uri}?user_code=${started.user_code}`);
    assert.equal(started.expires_in, 600);
    assert.equal(started.interval, 5);

    // Polls before the user decides (§3.5): pending; sooner than the interval: slow_down, +5 s.
    assert.equal(errorOf(await poll(t, started.device_code)), "authorization_pending");
    assert.equal(errorOf(await poll(t, started.device_code)), "slow_down");
    t.clock.advance(5);
    assert.equal(errorOf(await poll(t, started.device_code)), "slow_down", "the interval was 10 s: now 15 s");
    t.clock.advance(15);
    const pending = await poll(t, started.device_code);
    assert.equal(pending.statusCode, 400);
    assert.equal(errorOf(pending), "authorization_pending");

    // The person opens verification_uri_complete: the login page first, then the form, prefilled.
    const browser = new FormClient(t.app);
    const first = await browser.get(pathOf(started.verification_uri_complete));
    assert.equal(first.statusCode, 303);
    const login = new URL(String(first.headers.location), "http://localhost");
    assert.equal(login.pathname, "/index.php/login");
    const back = login.searchParams.get("redirect_url") as string;
    assert.equal(back, pathOf(started.verification_uri_complete));
    const loginPage = await browser.get(`${login.pathname}${login.search}`);
    assert.match(loginPage.body, /Log in to connect a device or command-line application to your account\./);
    const loggedInResponse = await browser.login("alice", PASSWORD, back);
    assert.equal(loggedInResponse.headers.location, back);
    const prefilled = await browser.get(back);
    assert.equal(prefilled.statusCode, 200);
    assert.match(prefilled.body, new RegExp(`name="user_code" value="${started.user_code}"`));

    // Typed in lower case without the dash: the confirmation names the client, the code, the scopes.
    const typed = started.user_code.replace("-", "").toLowerCase();
    const confirmation = await browser.post(VERIFICATION, { requesttoken: requestTokenOf(prefilled.body), user_code: typed });
    assert.equal(confirmation.statusCode, 200, confirmation.body);
    assert.match(confirmation.body, /The “Web App” application on a device/);
    assert.match(confirmation.body, new RegExp(`<strong class="user-code">${started.user_code}</strong>`));
    assert.match(confirmation.body, /your username, to sign you in/);
    assert.match(confirmation.body, /your full name and profile picture/);
    assert.doesNotMatch(confirmation.body, /your e-mail address/);
    const approved = await browser.post(VERIFICATION, {
      requesttoken: requestTokenOf(confirmation.body),
      user_code: started.user_code,
      decision: "approve",
    });
    assert.equal(approved.statusCode, 200);
    assert.match(approved.body, /id="device-approved"/);

    // Approved: the poll gets the tokens of the code grant (ID token: openid was granted).
    t.clock.advance(5);
    const tokens = await poll(t, started.device_code);
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.equal(tokens.headers["cache-control"], "no-store");
    const body = tokens.json();
    assert.equal(body.token_type, "Bearer");
    assert.equal(body.scope, "openid profile offline_access");
    assert.equal(body.user_id, "alice");
    assert.ok(body.refresh_token);
    const claims = await verifyIdToken(t, body.id_token);
    assert.equal(claims.sub, "alice");
    assert.equal(claims.nonce, undefined, "the device authorization request has no nonce");
    assert.equal(typeof claims.auth_time, "number");

    const info = await userinfo(t, body.access_token);
    assert.equal(info.statusCode, 200, info.body);
    assert.equal(info.json().sub, "alice");
    assert.equal(info.json().name, "Alice Liddell");

    // A device code redeems once; the tokens stay good and refresh like the code grant's.
    t.clock.advance(5);
    const again = await poll(t, started.device_code);
    assert.equal(again.statusCode, 400);
    assert.equal(errorOf(again), "invalid_grant");
    assert.equal((await userinfo(t, body.access_token)).statusCode, 200, "a reuse revokes nothing");
    const refreshed = await refresh(t, body.refresh_token);
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.equal(refreshed.json().scope, "openid profile offline_access");

    // The authorization is listed like any other, and the page no longer takes the code.
    const reused = await submitCode(browser, started.user_code);
    assert.equal(reused.statusCode, 400);
    assert.match(reused.body, /data-problem="unknown"/);
  });

  it("deny: the next polls get access_denied, and no tokens", async () => {
    const started = await startDevice(t);
    const browser = await loggedIn(t);
    const denied = await decide(browser, started.user_code, "deny");
    assert.equal(denied.statusCode, 200);
    assert.match(denied.body, /id="device-denied"/);
    assert.equal(errorOf(await poll(t, started.device_code)), "access_denied");
    t.clock.advance(5);
    assert.equal(errorOf(await poll(t, started.device_code)), "access_denied");
    const late = await submitCode(browser, started.user_code, "approve");
    assert.match(late.body, /data-problem="unknown"/, "a denied code cannot be approved afterwards");
  });

  it("expiry: after expires_in the poll gets expired_token and the page no longer knows the code", async () => {
    const started = await startDevice(t);
    t.clock.advance(started.expires_in);
    assert.equal(errorOf(await poll(t, started.device_code)), "expired_token");
    const browser = await loggedIn(t);
    const page = await submitCode(browser, started.user_code);
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /data-problem="unknown"/);
  });

  it("an approval that was not redeemed before expiry is expired_token too", async () => {
    const started = await startDevice(t);
    const browser = await loggedIn(t);
    assert.match((await decide(browser, started.user_code, "approve")).body, /id="device-approved"/);
    t.clock.advance(600);
    assert.equal(errorOf(await poll(t, started.device_code)), "expired_token");
  });

  it("a device code polled by another client is invalid_grant and issues nothing", async () => {
    const started = await startDevice(t);
    const browser = await loggedIn(t);
    await decide(browser, started.user_code, "approve");
    const other = await poll(t, started.device_code, OTHER_CLIENT);
    assert.equal(other.statusCode, 400);
    assert.equal(errorOf(other), "invalid_grant");
    assert.equal((await poll(t, started.device_code)).statusCode, 200, "its own client still redeems it");
  });

  it("a device code obtained with the secret needs the secret; one obtained with client_id alone polls with it", async () => {
    const confidential = await startDevice(t);
    const withoutSecret = await tokenRequest(t, {
      grant_type: DEVICE_GRANT,
      device_code: confidential.device_code,
      client_id: WEB_CLIENT.clientId,
    });
    assert.equal(withoutSecret.statusCode, 401);
    assert.equal(errorOf(withoutSecret), "invalid_client");

    const response = await form(t, DEVICE_AUTHORIZATION, { client_id: WEB_CLIENT.clientId, scope: "openid" });
    assert.equal(response.statusCode, 200, response.body);
    const publicStart: Started = response.json();
    await decide(await loggedIn(t), publicStart.user_code, "approve");
    const tokens = await tokenRequest(t, {
      grant_type: DEVICE_GRANT,
      device_code: publicStart.device_code,
      client_id: WEB_CLIENT.clientId,
    });
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.equal((await userinfo(t, tokens.json().access_token)).statusCode, 200);
  });

  it("the device authorization endpoint authenticates the client as the token endpoint does, and judges the scope", async () => {
    const wrongSecret = await form(t, DEVICE_AUTHORIZATION, {}, { authorization: basic(WEB_CLIENT.clientId, "wrong") });
    assert.equal(wrongSecret.statusCode, 401);
    assert.equal(errorOf(wrongSecret), "invalid_client");
    assert.match(String(wrongSecret.headers["www-authenticate"]), /^Basic /);
    const post = await form(t, DEVICE_AUTHORIZATION, { client_id: WEB_CLIENT.clientId, client_secret: WEB_CLIENT.secret });
    assert.equal(post.statusCode, 200, "client_secret_post");
    const unknown = await form(t, DEVICE_AUTHORIZATION, { client_id: "nobody" });
    assert.equal(errorOf(unknown), "invalid_client");
    const nothing = await form(t, DEVICE_AUTHORIZATION, {});
    assert.equal(errorOf(nothing), "invalid_request");
    const badScope = await form(
      t,
      DEVICE_AUTHORIZATION,
      { scope: "admin" },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(badScope.statusCode, 400);
    assert.equal(errorOf(badScope), "invalid_scope");
    const noScope = await startDevice(t);
    await decide(await loggedIn(t), noScope.user_code, "approve");
    assert.equal((await poll(t, noScope.device_code)).json().scope, "account", "no scope: the account scope");
  });

  it("a client with account access (the ownCloud and Nextcloud apps) may not use the grant", async () => {
    const response = await form(
      t,
      DEVICE_AUTHORIZATION,
      {},
      { authorization: basic("syncedappclientid0123456789abcdefghijklmnopq", "syncedappsecret0123456789abcdefghijklmnopqrstu") },
    );
    assert.equal(response.statusCode, 400);
    assert.equal(errorOf(response), "unauthorized_client");
  });

  it("of concurrent polls of an approved device code exactly one gets tokens", async () => {
    const started = await startDevice(t);
    await decide(await loggedIn(t), started.user_code, "approve");
    const answers = await Promise.all([1, 2, 3, 4].map(() => poll(t, started.device_code)));
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.statusCode === 400)) assert.equal(errorOf(answer), "invalid_grant");
  });

  it("a grant revoked in personal settings before the poll gives no tokens", async () => {
    const started = await startDevice(t);
    await decide(await loggedIn(t), started.user_code, "approve");
    const client = await t.services.oauth.findClient(WEB_CLIENT.clientId);
    assert.ok(client);
    assert.equal(await t.services.oauth.revoke("alice", client.id), true);
    assert.equal(errorOf(await poll(t, started.device_code)), "invalid_grant");
  });

  it("an unknown device code is invalid_grant", async () => {
    const response = await poll(t, "x".repeat(64));
    assert.equal(response.statusCode, 400);
    assert.equal(errorOf(response), "invalid_grant");
  });

  it("the verification page needs a logged-in user and its requesttoken", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: VERIFICATION });
    assert.equal(anonymous.statusCode, 303);
    assert.match(String(anonymous.headers.location), /^\/index\.php\/login\?redirect_url=%2Findex\.php%2Fapps%2Foauth2%2Fdevice/);
    const started = await startDevice(t);
    const browser = await loggedIn(t);
    const forged = await browser.post(VERIFICATION, {
      requesttoken: "forged",
      user_code: started.user_code,
      decision: "approve",
    });
    assert.equal(forged.statusCode, 403);
    assert.equal(errorOf(await poll(t, started.device_code)), "authorization_pending");
    const malformed = await submitCode(browser, "WDJB-MJH");
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.body, /data-problem="malformed"/);
  });

  it("expired device authorizations are removed by the cleanup a week after expiry", async () => {
    const started = await startDevice(t);
    t.clock.advance(600 + 7 * 86_400 - 1);
    await t.services.oauth.cleanup();
    assert.equal(errorOf(await poll(t, started.device_code)), "expired_token", "kept, refused, for a week");
    t.clock.advance(1);
    const counts = await t.services.oauth.cleanup();
    assert.ok(counts.deviceCodes >= 1);
    assert.equal(errorOf(await poll(t, started.device_code)), "invalid_grant");
  });
});

describe("device user code guessing is throttled (RFC 8628 §5.1)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("wrong codes slow the user down and lock them out; a valid code is refused too while locked", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get(VERIFICATION);
    const requesttoken = requestTokenOf(page.body);
    const wrong = (code: string) => browser.post(VERIFICATION, { requesttoken, user_code: code });
    for (let i = 0; i < 20; i++) {
      const response = await wrong(`BCDF${"GHJKLMNPQRSTVWXZ"[i % 16]}BBB`);
      assert.equal(response.statusCode, 400, `attempt ${i + 1}`);
      assert.match(response.body, /data-problem="unknown"/);
    }
    assert.ok(t.sleeps.length >= 19, "each attempt after the first failure waited");
    assert.ok((t.sleeps.at(-1) ?? 0) >= 30_000, "up to 30 s per attempt");
    const started = await startDevice(t);
    const locked = await wrong(started.user_code);
    assert.equal(locked.statusCode, 429);
    assert.ok(Number(locked.headers["retry-after"]) > 0);
    assert.match(locked.body, /data-problem="throttled"/);
    // Another user, from another address, is not affected.
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD, displayName: "Bob" }));
    const bob = new FormClient(t.app, "192.0.2.7");
    assert.equal((await bob.login("bob", PASSWORD)).statusCode, 303);
    const bobPage = await bob.get(VERIFICATION);
    const bobs = await bob.post(VERIFICATION, { requesttoken: requestTokenOf(bobPage.body), user_code: started.user_code });
    assert.equal(bobs.statusCode, 200);
    assert.match(bobs.body, /id="device-consent"/);
    // A malformed code is not a guess: it counts nothing.
    const before = t.sleeps.length;
    const malformed = await bob.post(VERIFICATION, { requesttoken: requestTokenOf(bobPage.body), user_code: "AEIOU" });
    assert.match(malformed.body, /data-problem="malformed"/);
    assert.equal(t.sleeps.length, before);
  });
});
