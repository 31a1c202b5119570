import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import {
  AUTHORIZE,
  addClient,
  authorizeUrl,
  consent,
  createOAuthTestApp,
  loggedIn,
  PASSWORD,
  type TestClient,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

const TRUSTED: TestClient = {
  name: "Trusted App",
  clientId: "trustedclientid0123456789abcdefghijklmnopqr",
  secret: "trustedclientsecret0123456789abcdefghijklmno",
  redirectUri: "https://trusted.example.com/cb",
};
const SUBDOMAINS: TestClient = {
  name: "Sub App",
  clientId: "subdomainclientid0123456789abcdefghijklmnop",
  secret: "subdomainclientsecret0123456789abcdefghijklm",
  redirectUri: "https://owncloud.org/cb",
};
const DESKTOP_LIKE: TestClient = {
  name: "Local App",
  clientId: "localclientid0123456789abcdefghijklmnopqrstu",
  secret: "localclientsecret0123456789abcdefghijklmnopq",
  redirectUri: "http://localhost:*",
};

describe("authorization endpoint (research A.2)", () => {
  let t: TestApp;
  let browser: FormClient;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, { ...TRUSTED, trusted: true });
    await addClient(t, { ...SUBDOMAINS, allowSubdomains: true });
    await addClient(t, DESKTOP_LIKE);
    accepted(await t.services.users.create({ uid: "bob", password: "bob password bob" }));
    browser = await loggedIn(t);
  });
  after(() => t.close());

  it("not logged in → 303 to the login page with redirect_url back and the user as login hint", async () => {
    const url = authorizeUrl(WEB_CLIENT, { state: "s1", user: "alice" });
    const response = await new FormClient(t.app).get(url);
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location), "http://x");
    assert.equal(location.pathname, "/index.php/login");
    assert.equal(location.searchParams.get("redirect_url"), url);
    assert.equal(location.searchParams.get("user"), "alice");
  });

  it("the login page names the requesting application and pre-fills the hinted user", async () => {
    const url = authorizeUrl(WEB_CLIENT);
    const anonymous = new FormClient(t.app);
    const location = String((await anonymous.get(`${url}&user=alice`)).headers.location);
    const page = await anonymous.get(location);
    assert.match(
      page.body,
      /The application "Web App" is requesting access to your account\. To authorize it, please log in first\./,
    );
    assert.match(page.body, /id="user" name="user" value="alice"/);
    const plain = await anonymous.get("/index.php/login?redirect_url=%2Findex.php%2Fsettings%2Fpersonal");
    assert.doesNotMatch(plain.body, /is requesting access/);
  });

  it("logging in returns to the consent page, which names client and user, with stable ids and no framing", async () => {
    const anonymous = new FormClient(t.app);
    const url = authorizeUrl(WEB_CLIENT, { state: "xyz" });
    const login = await anonymous.login("alice", PASSWORD, url);
    assert.equal(login.headers.location, url);
    const page = await anonymous.get(url);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /The “Web App” application would like permission to access your account/);
    assert.match(page.body, /You are logged in as <span title="alice"><strong>Alice Liddell<\/strong><\/span>\./);
    assert.match(page.body, /<form method="post" action="" id="oauth-consent">/);
    assert.match(page.body, /<button type="submit" id="authorize" autofocus>Authorize<\/button>/);
    assert.match(page.body, /Switch users to continue/);
    assert.match(String(page.headers["content-security-policy"]), /frame-ancestors 'none'/);
  });

  it("Authorize (POST with CSRF token) → 303 to the redirect URI with a 64-character code and the state", async () => {
    const location = await consent(browser, authorizeUrl(WEB_CLIENT, { state: "st&ate" }));
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}`, WEB_CLIENT.redirectUri);
    assert.match(url.searchParams.get("code") ?? "", /^[A-Za-z0-9]{64}$/);
    assert.equal(url.searchParams.get("state"), "st&ate");
  });

  it("the code stores user, client, PKCE challenge and method, redirect URI, and expires 600 s later", async () => {
    // issue 16: a challenge is 43–128 unreserved characters (RFC 7636 §4.2); "chal" is now refused.
    const challenge = "plain-challenge-0123456789-abcdefghijklmnopqrstuvwxyz";
    const location = await consent(
      browser,
      authorizeUrl(WEB_CLIENT, { code_challenge: challenge, code_challenge_method: "plain" }),
    );
    const { sha256Hex } = await import("../../src/crypto/secrets.js");
    const row = await t.services.storage.db
      .selectFrom("oauth2_codes as c")
      .innerJoin("oauth2_grants as g", "g.id", "c.grant_id")
      .innerJoin("oauth2_clients as k", "k.id", "g.client_id")
      .select([
        "g.uid",
        "k.client_id",
        "c.code_challenge",
        "c.code_challenge_method",
        "c.redirect_uri",
        "c.expires_at",
        "g.authorized_at",
      ])
      .where("c.code_hash", "=", sha256Hex(new URL(location).searchParams.get("code") as string))
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, {
      uid: "alice",
      client_id: WEB_CLIENT.clientId,
      code_challenge: challenge,
      code_challenge_method: "plain",
      redirect_uri: WEB_CLIENT.redirectUri,
      expires_at: t.clock.nowSeconds() + 600,
      authorized_at: t.clock.nowSeconds(),
    });
  });

  it("the consent POST without a valid CSRF token is refused and issues nothing", async () => {
    const url = authorizeUrl(WEB_CLIENT);
    const response = await browser.post(url, { requesttoken: "forged" });
    assert.equal(response.statusCode, 403);
    assert.equal(response.headers.location, undefined);
  });

  it("a consent POST for an invalid request goes to the start page, not to any redirect URI", async () => {
    const page = await browser.get(authorizeUrl(WEB_CLIENT));
    const url = authorizeUrl(WEB_CLIENT, { redirect_uri: "https://evil.example/cb" });
    const response = await browser.post(url, { requesttoken: requestTokenOf(page.body) });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, "/index.php/settings/personal");
  });

  describe("validation order (research A.2.2)", () => {
    it("1. a mandatory parameter missing or not a string → Request not valid, no client name", async () => {
      for (const url of [
        `${AUTHORIZE}?client_id=${WEB_CLIENT.clientId}&redirect_uri=${encodeURIComponent(WEB_CLIENT.redirectUri)}`,
        `${AUTHORIZE}?response_type=code&redirect_uri=${encodeURIComponent(WEB_CLIENT.redirectUri)}`,
        `${AUTHORIZE}?response_type=code&client_id=${WEB_CLIENT.clientId}`,
        `${authorizeUrl(WEB_CLIENT)}&state=a&state=b`,
      ]) {
        const response = await browser.get(url);
        assert.equal(response.statusCode, 400, url);
        assert.match(response.body, /Request not valid/);
        assert.match(response.body, /This request is not valid\. Please contact the administrator if this error persists\./);
      }
    });
    it("2. a requested user other than the logged-in one → switch-user page with a logout link", async () => {
      for (const user of ["bob", "nobody"]) {
        const response = await browser.get(authorizeUrl(WEB_CLIENT, { user }));
        assert.equal(response.statusCode, 200);
        assert.match(response.body, /Switch user/);
        assert.match(response.body, new RegExp(`requested access for user <strong>${user}</strong>`));
        assert.match(response.body, /href="\/index\.php\/apps\/oauth2\/logout\?/);
      }
      const same = await browser.get(authorizeUrl(WEB_CLIENT, { user: "alice" }));
      assert.match(same.body, /id="oauth-consent"/);
    });
    it("2 before 3: the user check comes before the client check", async () => {
      const response = await browser.get(authorizeUrl({ ...WEB_CLIENT, clientId: "unknown" }, { user: "bob" }));
      assert.match(response.body, /Switch user/);
    });
    it("3. an unknown client → Request not valid without a client name", async () => {
      const response = await browser.get(authorizeUrl({ ...WEB_CLIENT, clientId: "unknown" }));
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /Please contact the administrator if this error persists/);
    });
    it("4. an unregistered redirect URI → Request not valid naming the client, never a redirect", async () => {
      const response = await browser.get(
        authorizeUrl(WEB_CLIENT, { redirect_uri: "https://evil.example/cb", response_type: "qwertz" }),
      );
      assert.equal(response.statusCode, 400);
      assert.equal(response.headers.location, undefined);
      assert.match(response.body, /Please contact the administrator of “Web App” if this error persists\./);
    });
    it("5. another response type → 303 to the redirect URI with unsupported_response_type, the state and iss", async () => {
      // issue 5 adds RFC 9207 `iss` (the request's base URL; inject's host is localhost:80).
      const iss = `iss=${encodeURIComponent("http://localhost:80/index.php/apps/oauth2")}`;
      const response = await browser.get(authorizeUrl(WEB_CLIENT, { response_type: "qwertz", state: "a b" }));
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, `${WEB_CLIENT.redirectUri}?error=unsupported_response_type&state=a%20b&${iss}`);
      const noState = await browser.get(authorizeUrl(WEB_CLIENT, { response_type: "qwertz" }));
      assert.equal(noState.headers.location, `${WEB_CLIENT.redirectUri}?error=unsupported_response_type&${iss}`);
    });
  });

  describe("redirect URI rules at the authorization endpoint", () => {
    it("allow-sub-domains: a subdomain redirect is accepted and used", async () => {
      const location = await consent(browser, authorizeUrl(SUBDOMAINS, { redirect_uri: "https://sso.owncloud.org/cb" }));
      assert.ok(location.startsWith("https://sso.owncloud.org/cb?code="), location);
    });
    it("allow-sub-domains: a look-alike domain is refused", async () => {
      const response = await browser.get(authorizeUrl(SUBDOMAINS, { redirect_uri: "https://sso.owncloud.de/cb" }));
      assert.equal(response.statusCode, 400);
    });
    it("http://localhost:* accepts any port on localhost and refuses other hosts", async () => {
      const location = await consent(browser, authorizeUrl(DESKTOP_LIKE, { redirect_uri: "http://localhost:43210" }));
      assert.ok(location.startsWith("http://localhost:43210?code="), location);
      assert.equal((await browser.get(authorizeUrl(DESKTOP_LIKE, { redirect_uri: "http://127.0.0.1:43210" }))).statusCode, 400);
    });
    it("a supplied redirect URI is URL-decoded once more before matching", async () => {
      const doubleEncoded = `${AUTHORIZE}?response_type=code&client_id=${WEB_CLIENT.clientId}&redirect_uri=${encodeURIComponent(encodeURIComponent(WEB_CLIENT.redirectUri))}`;
      const location = await consent(browser, doubleEncoded);
      assert.ok(location.startsWith(`${WEB_CLIENT.redirectUri}?code=`), location);
    });
  });

  it("a trusted client skips the consent page: GET → 303 with a code", async () => {
    const response = await browser.get(authorizeUrl(TRUSTED, { state: "t" }));
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, TRUSTED.redirectUri);
    assert.match(location.searchParams.get("code") ?? "", /^[A-Za-z0-9]{64}$/);
    assert.equal(location.searchParams.get("state"), "t");
  });

  it("a trusted client still needs a login", async () => {
    const response = await new FormClient(t.app).get(authorizeUrl(TRUSTED));
    assert.match(String(response.headers.location), /^\/index\.php\/login\?/);
  });

  describe("implicit flow (response_type=token)", () => {
    it("delivers access_token, token_type, expires_in and state in the fragment (RFC 6749 §4.2.2), no refresh token", async () => {
      const location = await consent(browser, authorizeUrl(WEB_CLIENT, { response_type: "token", state: "imp" }));
      const [base, fragment] = location.split("#");
      assert.equal(base, WEB_CLIENT.redirectUri);
      const params = new URLSearchParams(fragment);
      assert.deepEqual([...params.keys()], ["access_token", "token_type", "expires_in", "state", "iss"]);
      assert.equal(params.get("token_type"), "Bearer");
      assert.equal(params.get("iss"), "http://localhost:80/index.php/apps/oauth2", "RFC 9207 (issue 5)");
      assert.equal(params.get("expires_in"), "3600");
      assert.equal(params.get("state"), "imp");
      const token = params.get("access_token") as string;
      assert.match(token, /^[A-Za-z0-9]{64}$/);
      assert.equal((await userinfo(t, token)).json().sub, "alice");
      const refreshTokens = await t.services.storage.db.selectFrom("oauth2_refresh_tokens").select("id").execute();
      assert.equal(refreshTokens.length, 0);
    });
    it("response_mode=query gives ownCloud's query form", async () => {
      const location = await consent(
        browser,
        authorizeUrl(WEB_CLIENT, { response_type: "token", response_mode: "query", state: "q" }),
      );
      const url = new URL(location);
      assert.equal(url.hash, "");
      assert.deepEqual([...url.searchParams.keys()], ["access_token", "expires_in", "state", "iss"]);
    });
    it("RFC 6749 §4.2.2.1: the implicit flow's errors go in the fragment too (an unknown scope here)", async () => {
      const response = await browser.get(
        authorizeUrl(WEB_CLIENT, { response_type: "token", scope: "nothing-known", state: "e" }),
      );
      assert.equal(response.statusCode, 303);
      const [base, fragment] = String(response.headers.location).split("#");
      assert.equal(base, WEB_CLIENT.redirectUri);
      const params = new URLSearchParams(fragment);
      assert.equal(params.get("error"), "invalid_scope");
      assert.equal(params.get("state"), "e");
    });
    it("an implicit token expires after 3600 s", async () => {
      const location = await consent(browser, authorizeUrl(WEB_CLIENT, { response_type: "token" }));
      const token = new URLSearchParams(location.split("#")[1]).get("access_token") as string;
      t.clock.advance(3600);
      assert.equal((await userinfo(t, token)).statusCode, 401);
    });
  });

  it("switch users: the logout link ends the session and returns to login with the authorization request", async () => {
    const other = await loggedIn(t);
    const page = await other.get(authorizeUrl(WEB_CLIENT, { user: "bob", state: "sw" }));
    const href = (/href="(\/index\.php\/apps\/oauth2\/logout\?[^"]+)"/.exec(page.body)?.[1] ?? "").replace(/&amp;/g, "&");
    assert.ok(href);
    const response = await other.get(href);
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location), "http://x");
    assert.equal(location.pathname, "/index.php/login");
    assert.equal(location.searchParams.get("user"), "bob");
    const back = new URL(location.searchParams.get("redirect_url") as string, "http://x");
    assert.equal(back.pathname, AUTHORIZE);
    assert.equal(back.searchParams.get("user"), "bob");
    assert.equal(back.searchParams.get("state"), "sw");
    assert.equal(back.searchParams.get("client_id"), WEB_CLIENT.clientId);
    assert.equal((await other.get("/index.php/settings/personal")).statusCode, 303, "logged out");
    const login = await other.login("bob", "bob password bob", `${back.pathname}${back.search}`);
    const consentPage = await other.get(String(login.headers.location));
    assert.match(consentPage.body, /id="oauth-consent"/);
  });

  it("the logout link needs the CSRF token", async () => {
    const other = await loggedIn(t);
    const response = await other.get(
      `/index.php/apps/oauth2/logout?response_type=code&client_id=x&redirect_uri=y&requesttoken=forged`,
    );
    assert.equal(response.statusCode, 403);
    assert.equal((await other.get("/index.php/settings/personal")).statusCode, 200, "still logged in");
  });

  it("the authorization-successful page", async () => {
    const response = await browser.get("/index.php/apps/oauth2/authorization-successful");
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /The application was authorized successfully\. You can now close this window\./);
  });
});
