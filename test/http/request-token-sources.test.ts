import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LOGIN_FLOW_POLL_PATH, LOGIN_FLOW_START_PATH } from "../../src/http/routes/login-flow.js";
import { authorizeUrl, createOAuthTestApp, loggedIn, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

const SETTINGS = "/index.php/settings/personal";

describe(`where a requesttoken is accepted (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: "bob password bob" }));
  });
  after(() => t.close());

  const startFlow = async () => {
    const started = (await t.app.inject({ method: "POST", url: LOGIN_FLOW_START_PATH })).json() as {
      login: string;
      poll: { token: string };
    };
    return { page: new URL(started.login).pathname, pollToken: started.poll.token };
  };
  const poll = async (token: string) =>
    (await t.app.inject({ method: "POST", url: LOGIN_FLOW_POLL_PATH, payload: { token } })).statusCode;

  it("a form POST with the requesttoken only in the query is refused (403) and changes nothing; in the body or the header it passes", async () => {
    const browser = await loggedIn(t);
    const token = requestTokenOf((await browser.get(SETTINGS)).body);
    const inQuery = `?requesttoken=${encodeURIComponent(token)}`;

    // A Login Flow v2 grant.
    const flow = await startFlow();
    const grantPage = await browser.get(flow.page);
    assert.equal(grantPage.statusCode, 200);
    const refusedGrant = await browser.post(`${flow.page}/grant${inQuery}`, {});
    assert.equal(refusedGrant.statusCode, 403);
    assert.equal(await poll(flow.pollToken), 404, "not granted");
    const granted = await browser.post(`${flow.page}/grant`, { requesttoken: token });
    assert.equal(granted.statusCode, 200);
    assert.equal(await poll(flow.pollToken), 200);

    // The OAuth consent form, whose own parameters are in its query.
    const consentUrl = authorizeUrl(WEB_CLIENT, { state: "q" });
    assert.match((await browser.get(consentUrl)).body, /id="oauth-consent"/);
    const refusedConsent = await browser.post(`${consentUrl}&requesttoken=${encodeURIComponent(token)}`, {});
    assert.equal(refusedConsent.statusCode, 403);
    assert.equal(refusedConsent.headers.location, undefined, "no code");

    // A settings form, and a JSON call's header.
    const appPasswords = (await t.services.appPasswords.list("alice")).length;
    const refusedName = await browser.post(`/index.php/settings/personal/app-passwords${inQuery}`, { name: "q" });
    assert.equal(refusedName.statusCode, 403);
    assert.equal((await t.services.appPasswords.list("alice")).length, appPasswords, "no app password made");
    const viaHeader = await browser.post(`${(await startFlow()).page}/cancel`, {}, { requesttoken: token });
    assert.equal(viaHeader.statusCode, 200, "the requesttoken header, as ownCloud's JavaScript sends it");

    // The logout form posts its token in the body; a POST with it in the query only ends nothing.
    const refusedLogout = await browser.post(`/index.php/logout${inQuery}`, {});
    assert.equal(refusedLogout.statusCode, 403);
    assert.equal((await browser.get(SETTINGS)).statusCode, 200, "still logged in");
  });

  it("the logout links (GET) work with the session's requesttoken in their query, and only with it", async () => {
    const browser = await loggedIn(t);
    const token = requestTokenOf((await browser.get(SETTINGS)).body);
    assert.equal((await browser.get("/index.php/logout?requesttoken=forged")).statusCode, 403);
    const logout = await browser.get(`/index.php/logout?requesttoken=${encodeURIComponent(token)}`);
    assert.equal(logout.statusCode, 303);
    assert.equal((await browser.get(SETTINGS)).statusCode, 303, "logged out");

    // The OAuth switch-user page's logout link.
    const other = await loggedIn(t);
    const page = await other.get(authorizeUrl(WEB_CLIENT, { user: "bob", state: "sw" }));
    const href = (/href="(\/index\.php\/apps\/oauth2\/logout\?[^"]+)"/.exec(page.body)?.[1] ?? "").replace(/&amp;/g, "&");
    assert.match(href, /requesttoken=/);
    const switched = await other.get(href);
    assert.equal(switched.statusCode, 303);
    assert.match(String(switched.headers.location), /^\/index\.php\/login\?redirect_url=/);
    assert.equal((await other.get(SETTINGS)).statusCode, 303, "logged out");
  });
});
