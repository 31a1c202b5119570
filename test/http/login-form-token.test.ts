import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { LOGIN_FORM_LIFETIME_SECONDS } from "../../src/http/login-form-token.js";
import { LOGIN_FLOW_PAGE_PREFIX, LOGIN_FLOW_START_PATH } from "../../src/http/routes/login-flow.js";
import { authorizeUrl, createOAuthTestApp, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

const LOGIN = "/index.php/login";
const SETTINGS = "/index.php/settings/personal";

function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers["set-cookie"];
  return header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
}

describe(`the login form needs no session until the login (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());

  /** The sessions table's rows, counted in the database itself. */
  const sessionRows = async (): Promise<number> => {
    const row = await t.testStorage.storage.db
      .selectFrom("sessions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it("showing the login form writes no session row, however often and from wherever it is reached", async () => {
    const before = await sessionRows();
    const flow = (await t.app.inject({ method: "POST", url: LOGIN_FLOW_START_PATH })).json() as { login: string };
    const flowPage = new URL(flow.login).pathname;
    assert.ok(flowPage.startsWith(LOGIN_FLOW_PAGE_PREFIX));
    const entries = [
      LOGIN,
      `${LOGIN}?redirect_url=${encodeURIComponent(SETTINGS)}`,
      // The OAuth authorization request and Login Flow v2 send a visitor to the login page with a note.
      authorizeUrl(WEB_CLIENT, { state: "s" }),
      flowPage,
    ];
    for (let i = 0; i < 25; i++) {
      for (const entry of entries) {
        const browser = new FormClient(t.app);
        let response = await browser.get(entry);
        while (response.statusCode === 303) response = await browser.get(String(response.headers.location));
        assert.equal(response.statusCode, 200, entry);
        assert.match(response.body, /id="login-form"/, entry);
        assert.ok(!setCookies(response).some((c) => c.startsWith("ks_session=")), "no session cookie before the login");
      }
    }
    // Failed logins write no session either.
    const browser = new FormClient(t.app);
    assert.equal((await browser.login("alice", "wrong password")).statusCode, 401);
    assert.equal((await browser.post(LOGIN, { user: "alice", password: PASSWORD, requesttoken: "forged" })).statusCode, 403);
    assert.equal(await sessionRows(), before, "100 page views and two failed attempts: no row");

    assert.equal((await browser.login("alice", PASSWORD)).statusCode, 303);
    assert.equal(await sessionRows(), before + 1, "the login writes its session");
    assert.equal((await browser.get(SETTINGS)).statusCode, 200);
  });

  it("the OAuth authorization request and the Login Flow v2 page still lead through the login form back to where they were", async () => {
    const browser = new FormClient(t.app);
    const authorize = authorizeUrl(WEB_CLIENT, { state: "s" });
    const toLogin = await browser.get(authorize);
    const login = await browser.get(String(toLogin.headers.location));
    assert.match(login.body, new RegExp(WEB_CLIENT.name), "the login page names the application");
    const done = await browser.post(LOGIN, {
      user: "alice",
      password: PASSWORD,
      requesttoken: requestTokenOf(login.body),
      redirect_url: authorize,
    });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, authorize);
    assert.match((await browser.get(authorize)).body, /id="oauth-consent"/);

    const flow = (await t.app.inject({ method: "POST", url: LOGIN_FLOW_START_PATH })).json() as { login: string };
    const flowPage = new URL(flow.login).pathname;
    const other = new FormClient(t.app);
    const flowLogin = await other.get(String((await other.get(flowPage)).headers.location));
    assert.equal(flowLogin.statusCode, 200);
    const back = await other.post(LOGIN, {
      user: "bob",
      password: "bob password",
      requesttoken: requestTokenOf(flowLogin.body),
      redirect_url: flowPage,
    });
    assert.equal(back.headers.location, flowPage);
    assert.match((await other.get(flowPage)).body, /grant/i);
  });

  it("a login is refused (403) without the form's token for this browser's cookie: missing, forged, another browser's, in the query, or an hour old", async () => {
    const mine = new FormClient(t.app);
    const page = await mine.get(LOGIN);
    const token = requestTokenOf(page.body);
    const theirs = new FormClient(t.app);
    const theirToken = requestTokenOf((await theirs.get(LOGIN)).body);
    const [shownAt, signature] = token.split(".") as [string, string];
    const attempts: Array<[string, Record<string, string>, string?]> = [
      ["no token", {}],
      ["a forged token", { requesttoken: "forged" }],
      ["another signature", { requesttoken: `${shownAt}.${signature.slice(1)}A` }],
      ["a later time under the same signature", { requesttoken: `${Number(shownAt) + 1}.${signature}` }],
      ["another browser's token", { requesttoken: theirToken }],
      ["the token in the query only", {}, `?requesttoken=${encodeURIComponent(token)}`],
    ];
    for (const [what, extra, query = ""] of attempts) {
      const response = await mine.post(`${LOGIN}${query}`, { user: "alice", password: PASSWORD, ...extra });
      assert.equal(response.statusCode, 403, what);
      assert.match(response.body, /id="login-form"/, `${what}: the form again, to try once more`);
    }
    const noCookie = await t.app.inject({
      method: "POST",
      url: LOGIN,
      payload: new URLSearchParams({ user: "alice", password: PASSWORD, requesttoken: token }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(noCookie.statusCode, 403, "the token without its cookie");
    assert.equal((await mine.get(SETTINGS)).statusCode, 303, "still logged out");

    t.clock.advance(LOGIN_FORM_LIFETIME_SECONDS);
    const expired = await mine.post(LOGIN, { user: "alice", password: PASSWORD, requesttoken: token });
    assert.equal(expired.statusCode, 403, "a form shown an hour ago");
    // The form shown again with the refusal works.
    const again = await mine.post(LOGIN, { user: "alice", password: PASSWORD, requesttoken: requestTokenOf(expired.body) });
    assert.equal(again.statusCode, 303);
  });

  it("two tabs' login forms both work, and the token also comes in the requesttoken header", async () => {
    const browser = new FormClient(t.app);
    const first = requestTokenOf((await browser.get(LOGIN)).body);
    t.clock.advance(LOGIN_FORM_LIFETIME_SECONDS - 60);
    requestTokenOf((await browser.get(LOGIN)).body);
    const response = await browser.post(LOGIN, { user: "alice", password: PASSWORD }, { requesttoken: first });
    assert.equal(response.statusCode, 303, "the first tab's form, 59 minutes later");
  });

  it("the login form's cookie is HttpOnly, SameSite=Lax, sent to the login page only, and forgotten after the login", async () => {
    const browser = new FormClient(t.app);
    const page = await browser.get(LOGIN);
    const cookie = setCookies(page).find((c) => c.startsWith("ks_login_form="));
    assert.ok(cookie, JSON.stringify(page.headers["set-cookie"]));
    assert.match(cookie, /; Path=\/index\.php\/login(;|$)/);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    const login = await browser.post(LOGIN, { user: "alice", password: PASSWORD, requesttoken: requestTokenOf(page.body) });
    assert.ok(
      setCookies(login).some((c) => /^ks_login_form=;/.test(c)),
      JSON.stringify(login.headers["set-cookie"]),
    );
    assert.ok(!browser.cookieHeader.includes("ks_login_form="));
  });

  it("a login starts a session with a new id and ends the one the browser held (a planted id is worth nothing)", async () => {
    const victim = new FormClient(t.app);
    const attacker = new FormClient(t.app);
    assert.equal((await attacker.login("bob", "bob password")).statusCode, 303);
    const planted = /ks_session=([^;]+)/.exec(attacker.cookieHeader)?.[1] as string;
    const page = await victim.get(`${LOGIN}?prompt=login`, { cookie: `ks_session=${planted}` });
    const login = await victim.post(
      LOGIN,
      { user: "alice", password: PASSWORD, requesttoken: requestTokenOf(page.body) },
      { cookie: `ks_session=${planted}; ${victim.cookieHeader}` },
    );
    assert.equal(login.statusCode, 303);
    const issued = /ks_session=([^;]+)/.exec(victim.cookieHeader)?.[1];
    assert.ok(issued && issued !== planted, "a new session id");
    assert.equal((await attacker.get(SETTINGS)).statusCode, 303, "the planted session ended with the login");
    assert.match((await victim.get(SETTINGS)).body, /Alice Liddell/);
  });
});
