import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { authorizeUrl, consent, createOAuthTestApp, exchangeCode, loggedIn, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOidcTestApp, ISSUER, openIdCode, openIdUrl, verifyIdToken } from "./support.js";

/** The parameters of a redirect to the client (query form). */
function redirectParams(location: unknown): URLSearchParams {
  const url = new URL(String(location));
  assert.equal(`${url.origin}${url.pathname}`, WEB_CLIENT.redirectUri, String(location));
  return url.searchParams;
}

function assertErrorAtRedirect(response: { statusCode: number; headers: Record<string, unknown> }, error: string): void {
  assert.equal(response.statusCode, 303);
  const params = redirectParams(response.headers.location);
  assert.equal(params.get("error"), error);
  assert.equal(params.get("state"), "st");
  assert.equal(params.get("iss"), ISSUER, "RFC 9207");
  assert.equal(params.get("code"), null);
}

/** Logs in through the form the redirect leads to (the login page, then back to authorize). */
async function loginThrough(browser: FormClient, loginLocation: string): Promise<string> {
  const page = await browser.get(loginLocation);
  assert.equal(page.statusCode, 200, "the login form is shown");
  assert.match(page.body, /name="password"/);
  const back = new URL(loginLocation, "http://localhost").searchParams.get("redirect_url") as string;
  const login = await browser.post("/index.php/login", {
    user: "alice",
    password: PASSWORD,
    requesttoken: requestTokenOf(page.body),
    redirect_url: back,
  });
  assert.equal(login.statusCode, 303);
  return String(login.headers.location);
}

describe(`prompt, max_age, login_hint (OIDC Core §3.1.2.1, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  it("OIDC Core 3.1.2.1: prompt=none without a session answers login_required at the redirect URI", async () => {
    const response = await new FormClient(t.app).get(openIdUrl({ prompt: "none" }));
    assertErrorAtRedirect(response, "login_required");
  });

  it("OIDC Core 3.1.2.1: prompt=none without a session still shows the error page for an unregistered redirect URI", async () => {
    const response = await new FormClient(t.app).get(openIdUrl({ prompt: "none", redirect_uri: "https://evil.example/cb" }));
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
  });

  it("OIDC Core 3.1.2.1: prompt=none with a session but no earlier consent answers consent_required", async () => {
    const fresh = await createOidcTestApp();
    try {
      const response = await (await loggedIn(fresh)).get(openIdUrl({ prompt: "none" }));
      assertErrorAtRedirect(response, "consent_required");
    } finally {
      await fresh.close();
    }
  });

  it("OIDC Core 3.1.2.1: prompt=none with a session and a live grant issues a code without showing a page", async () => {
    const browser = await loggedIn(t);
    await openIdCode(browser);
    const response = await browser.get(openIdUrl({ prompt: "none" }));
    assert.equal(response.statusCode, 303);
    const params = redirectParams(response.headers.location);
    assert.match(params.get("code") ?? "", /^[A-Za-z0-9]{64}$/);
    assert.equal(params.get("state"), "st");
  });

  it("OIDC Core 3.1.2.1: prompt=login sends a logged-in user to the login form; the new login is the ID token's auth_time", async () => {
    const browser = await loggedIn(t);
    const firstLogin = t.clock.nowSeconds();
    t.clock.advance(120);
    const response = await browser.get(openIdUrl({ prompt: "login consent" }));
    assert.equal(response.statusCode, 303);
    const loginLocation = String(response.headers.location);
    assert.match(loginLocation, /^\/index\.php\/login\?/);
    const back = await loginThrough(browser, loginLocation);
    assert.doesNotMatch(back, /prompt=[^&]*login/, "the way back does not ask for a login again");
    const location = await consent(browser, back);
    const code = new URL(location).searchParams.get("code") as string;
    const claims = await verifyIdToken(t, (await exchangeCode(t, code)).json().id_token);
    assert.equal(claims.auth_time, firstLogin + 120);
  });

  it("OIDC Core 3.1.2.1: max_age older than the login sends the user to log in again; a login within max_age does not", async () => {
    const browser = await loggedIn(t);
    const loginTime = t.clock.nowSeconds();
    t.clock.advance(100);
    const within = await browser.get(openIdUrl({ max_age: "100" }));
    assert.equal(within.statusCode, 200, "consent page: the login is 100 s old, max_age 100");
    assert.match(within.body, /id="oauth-consent"/);
    const code = await openIdCode(browser, { max_age: "100" });
    assert.equal((await verifyIdToken(t, (await exchangeCode(t, code)).json().id_token)).auth_time, loginTime);

    t.clock.advance(1);
    const tooOld = await browser.get(openIdUrl({ max_age: "100" }));
    assert.equal(tooOld.statusCode, 303);
    const back = await loginThrough(browser, String(tooOld.headers.location));
    assert.doesNotMatch(back, /max_age/);
    const page = await browser.get(back);
    assert.match(page.body, /id="oauth-consent"/, "after the fresh login, on to consent");
  });

  it("OIDC Core 3.1.2.1: prompt=none with a login older than max_age answers login_required", async () => {
    const browser = await loggedIn(t);
    await openIdCode(browser);
    t.clock.advance(61);
    assertErrorAtRedirect(await browser.get(openIdUrl({ prompt: "none", max_age: "60" })), "login_required");
  });

  it("OIDC Core 3.1.2.1: prompt=consent shows the consent page even for a trusted client", async () => {
    const trusted = await createOidcTestApp({ trusted: true });
    try {
      const browser = await loggedIn(trusted);
      const skipped = await browser.get(openIdUrl());
      assert.equal(skipped.statusCode, 303, "a trusted client skips consent");
      const asked = await browser.get(openIdUrl({ prompt: "consent" }));
      assert.equal(asked.statusCode, 200);
      assert.match(asked.body, /id="oauth-consent"/);
    } finally {
      await trusted.close();
    }
  });

  it("OIDC Core 3.1.2.1: prompt=none combined with another value is invalid_request at the redirect URI", async () => {
    assertErrorAtRedirect(await (await loggedIn(t)).get(openIdUrl({ prompt: "none consent" })), "invalid_request");
  });

  it("OIDC Core 3.1.2.1: a max_age that is not a non-negative integer is invalid_request at the redirect URI", async () => {
    const browser = await loggedIn(t);
    for (const maxAge of ["-1", "1.5", "soon"]) {
      assertErrorAtRedirect(await browser.get(openIdUrl({ max_age: maxAge })), "invalid_request");
    }
  });

  it("OIDC Core 3.1.2.6: request, request_uri and registration answer request_not_supported, request_uri_not_supported, registration_not_supported", async () => {
    const browser = await loggedIn(t);
    assertErrorAtRedirect(await browser.get(openIdUrl({ request: "eyJhbGciOiJub25lIn0.e30." })), "request_not_supported");
    assertErrorAtRedirect(await browser.get(openIdUrl({ request_uri: "https://rp.example/r" })), "request_uri_not_supported");
    assertErrorAtRedirect(await browser.get(openIdUrl({ registration: "{}" })), "registration_not_supported");
  });

  it("OIDC Core 3.1.2.1: login_hint fills in the login form's user name", async () => {
    const response = await new FormClient(t.app).get(openIdUrl({ login_hint: "alice" }));
    const location = String(response.headers.location);
    assert.match(location, /&user=alice$/);
    const page = await new FormClient(t.app).get(location);
    assert.match(page.body, /value="alice"/);
  });

  it("without openid, prompt and max_age are ignored as ownCloud does (prompt=none still leads to the login page)", async () => {
    const anonymous = await new FormClient(t.app).get(authorizeUrl(WEB_CLIENT, { prompt: "none", max_age: "x" }));
    assert.equal(anonymous.statusCode, 303);
    assert.match(String(anonymous.headers.location), /^\/index\.php\/login\?redirect_url=/);
    const page = await (await loggedIn(t)).get(authorizeUrl(WEB_CLIENT, { prompt: "login", max_age: "0" }));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="oauth-consent"/);
  });

  it("the ownCloud desktop client's request (openid, prompt=select_account consent, login_hint and user) shows the consent page and redeems", async () => {
    const desktop = await createOAuthTestApp();
    try {
      const browser = await loggedIn(desktop);
      const url = openIdUrl({
        scope: "openid offline_access email profile",
        prompt: "select_account consent",
        login_hint: "alice",
        user: "alice",
        nonce: "",
      });
      const code = new URL(await consent(browser, url)).searchParams.get("code") as string;
      const response = await exchangeCode(desktop, code);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().user_id, "alice");
    } finally {
      await desktop.close();
    }
  });
});
