import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { SECOND_FACTOR_THROTTLE } from "../../src/security/domain/throttle-policy.js";
import { answerGrantPage, poll, startFlow } from "../login-flow/support.js";
import { authorizeUrl, createOAuthTestApp, exchangeCode, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { answerChallenge, basic, CHALLENGE, currentCode, enableTotp, PERSONAL } from "./support.js";

/** The login of a user with a second factor: password, then the challenge; nothing in between. */
describe("the second-factor challenge after the password", () => {
  let t: TestApp;
  let counter = 0;
  let uid = "";
  let secret = "";
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());
  // Each test has its own user and address: throttle counts do not leak between tests.
  beforeEach(async () => {
    uid = `twofactor${++counter}`;
    accepted(await t.services.users.create({ uid, password: PASSWORD }));
    secret = await enableTotp(t, uid);
  });
  const ip = () => `203.0.113.${counter}`;
  const passwordOnly = async (redirectUrl?: string) => {
    const browser = new FormClient(t.app, ip());
    const login = await browser.login(uid, PASSWORD, redirectUrl);
    assert.equal(login.statusCode, 303);
    const location = String(login.headers.location);
    assert.ok(location.startsWith(CHALLENGE), location);
    return { browser, location };
  };

  it("the password alone leads to the challenge, and its session is refused everywhere else", async () => {
    const { browser } = await passwordOnly();
    const settings = await browser.get(PERSONAL);
    assert.equal(settings.statusCode, 303);
    assert.equal(settings.headers.location, `${CHALLENGE}?redirect_url=${encodeURIComponent(PERSONAL)}`);
    const ocs = await browser.get("/ocs/v2.php/cloud/user?format=json", { "ocs-apirequest": "true" });
    assert.equal(ocs.statusCode, 401, "OCS with the cookie");
    const activity = await browser.get("/ocs/v2.php/apps/activity/api/v2/activity/all?format=json", { "ocs-apirequest": "true" });
    assert.equal(activity.statusCode, 403, "the activity API answers nobody 403");
    const authorize = await browser.get(authorizeUrl(WEB_CLIENT));
    assert.equal(authorize.statusCode, 303);
    assert.match(String(authorize.headers.location), /^\/index\.php\/login\?redirect_url=/, "no consent, no code");
    const createAppPassword = await browser.post(`${PERSONAL}/app-passwords`, { requesttoken: "x", name: "phone" });
    assert.equal(createAppPassword.statusCode, 303);
    assert.deepEqual(await t.services.appPasswords.list(uid), []);
    const page = await browser.get(CHALLENGE);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="challenge-totp"/);
    assert.doesNotMatch(page.body, /id="challenge-backup-codes"/, "no recovery codes yet: not offered");
    assert.match(page.body, /id="second-factor-cancel"/, "the page offers to log out");
    // The page's security headers, as every page's (test/http/security-headers.test.ts).
    assert.match(String(page.headers["content-security-policy"]), /default-src 'self'; script-src 'self'/);
    assert.equal(page.headers["x-frame-options"], "DENY");
    assert.equal(page.headers["cache-control"], "no-store");
    assert.doesNotMatch(page.body, /<script/, "no script at all");
  });

  it("a correct code completes the login with a new session id, and goes on to where the login was for", async () => {
    const { browser, location } = await passwordOnly(PERSONAL);
    const before = browser.cookieHeader;
    const answered = await answerChallenge(browser, location, currentCode(t, secret));
    assert.equal(answered.statusCode, 303, answered.body);
    assert.equal(answered.headers.location, PERSONAL);
    assert.notEqual(browser.cookieHeader, before, "a new session cookie");
    assert.equal((await browser.get(PERSONAL)).statusCode, 200);
  });

  it("a code is accepted once: the same code again, in its window, is refused (replay)", async () => {
    const code = currentCode(t, secret);
    const first = await passwordOnly();
    assert.equal((await answerChallenge(first.browser, first.location, code)).statusCode, 303);
    const second = await passwordOnly();
    const replay = await answerChallenge(second.browser, second.location, code);
    assert.equal(replay.statusCode, 401);
    assert.match(replay.body, /The code is wrong, or it was already used\./);
    t.clock.advance(30);
    assert.equal((await answerChallenge(second.browser, second.location, currentCode(t, secret))).statusCode, 303);
  });

  it("two concurrent challenges with the same code: exactly one login completes", async () => {
    const code = currentCode(t, secret);
    const browsers = [await passwordOnly(), await passwordOnly()];
    const answers = await Promise.all(browsers.map(({ browser, location }) => answerChallenge(browser, location, code)));
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [303, 401]);
  });

  it("the challenge is throttled per user: past the ceiling even the right code is refused with 429", async () => {
    const { browser, location } = await passwordOnly();
    t.sleeps.length = 0;
    for (let i = 0; i < SECOND_FACTOR_THROTTLE.lockoutAfterFailures; i++) {
      assert.equal((await answerChallenge(browser, location, "000000")).statusCode, 401);
    }
    assert.ok(t.sleeps.length > 0, "failed attempts are delayed");
    const refused = await answerChallenge(browser, location, currentCode(t, secret));
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers["retry-after"]) > 0);
    assert.match(refused.body, /Too many failed attempts/);
    // From another address too: the user's own bucket counts.
    const elsewhere = new FormClient(t.app, "192.0.2.99");
    const login = await elsewhere.login(uid, PASSWORD);
    assert.equal((await answerChallenge(elsewhere, String(login.headers.location), currentCode(t, secret))).statusCode, 429);
  });

  it("logging out ends the half-finished login", async () => {
    const { browser } = await passwordOnly();
    const page = await browser.get(CHALLENGE);
    const out = await browser.post("/index.php/logout", { requesttoken: requestTokenOf(page.body) });
    assert.equal(out.statusCode, 303);
    assert.equal(
      (await browser.get(CHALLENGE)).headers.location,
      `/index.php/login?redirect_url=${encodeURIComponent(PERSONAL)}`,
    );
  });

  it("the half-finished login expires: after ten minutes the challenge is gone", async () => {
    const { browser } = await passwordOnly();
    t.clock.advance(10 * 60);
    const page = await browser.get(CHALLENGE);
    assert.equal(page.statusCode, 303);
    assert.equal(page.headers.location, `/index.php/login?redirect_url=${encodeURIComponent(PERSONAL)}`);
  });

  it("an OAuth authorization started before the login gets its code only after the challenge", async () => {
    const browser = new FormClient(t.app, ip());
    const url = authorizeUrl(WEB_CLIENT, { state: "s1" });
    const first = await browser.get(url);
    const back = new URL(String(first.headers.location), "http://x").searchParams.get("redirect_url") ?? "";
    const login = await browser.login(uid, PASSWORD, back);
    assert.ok(String(login.headers.location).startsWith(CHALLENGE));
    const answered = await answerChallenge(browser, String(login.headers.location), currentCode(t, secret));
    assert.equal(answered.statusCode, 303);
    assert.equal(answered.headers.location, back, "back to the authorization request");
    const consent = await browser.get(back);
    assert.equal(consent.statusCode, 200);
    const decision = await browser.post(back, { requesttoken: requestTokenOf(consent.body) });
    const redirect = new URL(String(decision.headers.location));
    assert.equal(redirect.searchParams.get("state"), "s1");
    const code = redirect.searchParams.get("code") ?? "";
    const tokens = await exchangeCode(t, code);
    assert.equal(tokens.statusCode, 200, tokens.body);
  });

  it("a Login Flow v2 login passes the challenge, then the client polls its app password", async () => {
    const flow = await startFlow(t.app, ip());
    const browser = new FormClient(t.app, ip());
    const open = await browser.get(flow.loginPath);
    assert.equal(open.statusCode, 303);
    const back = new URL(String(open.headers.location), "http://x").searchParams.get("redirect_url") ?? "";
    const login = await browser.login(uid, PASSWORD, back);
    const answered = await answerChallenge(browser, String(login.headers.location), currentCode(t, secret));
    assert.equal(answered.headers.location, back);
    assert.equal((await answerGrantPage(browser, flow, "grant")).statusCode, 200);
    const polled = await poll(t.app, flow.pollToken, ip());
    assert.equal(polled.statusCode, 200);
    assert.equal(polled.json().loginName, uid);
  });

  it("HTTP Basic with the account password is refused with 401 and says why; an app password is 200", async () => {
    const refused = await t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      remoteAddress: ip(),
      headers: { authorization: basic(uid, PASSWORD), "ocs-apirequest": "true" },
    });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers["x-keystream-auth-refused"], "second-factor-required");
    assert.equal(refused.json().error, "second_factor_required");
    assert.match(refused.json().error_description, /two-factor authentication.*app password/s);
    const forward = await t.app.inject({
      method: "GET",
      url: "/index.php/apps/keystream/api/v1/auth-request",
      remoteAddress: ip(),
      headers: { authorization: basic(uid, PASSWORD) },
    });
    assert.equal(forward.statusCode, 401, "forward authentication too");
    assert.equal(forward.headers["x-keystream-auth-refused"], "second-factor-required");
    const { secret: appPassword } = accepted(await t.services.appPasswords.create(uid, "desktop"));
    const allowed = await t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      remoteAddress: ip(),
      headers: { authorization: basic(uid, appPassword), "ocs-apirequest": "true" },
    });
    assert.equal(allowed.statusCode, 200, allowed.body);
    const status = await t.app.inject({ method: "GET", url: "/status.php", headers: { authorization: basic(uid, PASSWORD) } });
    assert.equal(status.statusCode, 200, "status.php takes no credentials");
  });
});
