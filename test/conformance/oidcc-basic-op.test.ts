import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AUTHORIZE, basic, loggedIn, TOKEN, tokenRequest, USERINFO, WEB_CLIENT } from "../oauth/support.js";
import { createOidcTestApp, verifyIdToken } from "../oidc/support.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * Checks of the OpenID Foundation's Basic OP plan (openid/conformance-suite), re-created here:
 * the suite itself needs the network. Each test is named after the suite's module; a module with
 * no test here is not claimed.
 */

const NONCE = "n-0S6_WzA2Mj";

describe(`OpenID Connect Basic OP plan, re-created (${testDatabaseDialect})`, () => {
  let t: TestApp;

  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  /** Consent on the page the request leads to; the code of the redirect. */
  async function codeFor(browser: Awaited<ReturnType<typeof loggedIn>>, location: string): Promise<string> {
    const page = await browser.get(location);
    assert.equal(page.statusCode, 200, page.body);
    const decision = await browser.post(location, { requesttoken: requestTokenOf(page.body) });
    const code = new URL(String(decision.headers.location)).searchParams.get("code");
    assert.ok(code, String(decision.headers.location));
    return code;
  }

  it("oidcc-ensure-post-request-succeeds: an authorization request sent by POST is the same request as by GET", async () => {
    const browser = await loggedIn(t);
    const params = {
      response_type: "code",
      client_id: WEB_CLIENT.clientId,
      redirect_uri: WEB_CLIENT.redirectUri,
      scope: "openid profile",
      state: "post-state",
      nonce: NONCE,
    };
    const posted = await browser.post(AUTHORIZE, params);
    assert.equal(posted.statusCode, 303, posted.body);
    const location = String(posted.headers.location);
    assert.equal(new URL(location, "http://x").pathname, AUTHORIZE);
    const code = await codeFor(browser, location);
    const tokens = await tokenRequest(
      t,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(tokens.statusCode, 200, tokens.body);
    const claims = await verifyIdToken(t, tokens.json().id_token);
    assert.equal(claims.nonce, NONCE);
  });

  it("oidcc-client-secret-post: a confidential client authenticates with client_id and client_secret in the body, without PKCE", async () => {
    const browser = await loggedIn(t);
    const code = await codeFor(
      browser,
      `${AUTHORIZE}?${new URLSearchParams({
        response_type: "code",
        client_id: WEB_CLIENT.clientId,
        redirect_uri: WEB_CLIENT.redirectUri,
        scope: "openid",
        nonce: NONCE,
      })}`,
    );
    const tokens = await t.app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: WEB_CLIENT.redirectUri,
        client_id: WEB_CLIENT.clientId,
        client_secret: WEB_CLIENT.secret,
      }).toString(),
    });
    assert.equal(tokens.statusCode, 200, tokens.body);
    await verifyIdToken(t, tokens.json().id_token);
    const wrong = await tokenRequest(t, {
      grant_type: "authorization_code",
      code,
      redirect_uri: WEB_CLIENT.redirectUri,
      client_id: WEB_CLIENT.clientId,
      client_secret: `${WEB_CLIENT.secret}x`,
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error, "invalid_client");
  });

  it("oidcc-client-secret-basic with a form-urlencoded secret (RFC 6749 §2.3.1): special characters work encoded and raw", async () => {
    const secret = "Se+cr/et=%:&-0123456789abcdefghijklmnopqrstuvwxyz";
    const modified = await t.services.oauth.clients.modify(WEB_CLIENT.name, "client-secret", secret);
    assert.ok(modified.ok);
    try {
      const encoded = basic(encodeURIComponent(WEB_CLIENT.clientId), encodeURIComponent(secret));
      for (const authorization of [encoded, basic(WEB_CLIENT.clientId, secret)]) {
        const browser = await loggedIn(t);
        const code = await codeFor(
          browser,
          `${AUTHORIZE}?${new URLSearchParams({ response_type: "code", client_id: WEB_CLIENT.clientId, redirect_uri: WEB_CLIENT.redirectUri })}`,
        );
        const tokens = await tokenRequest(
          t,
          { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
          { authorization },
        );
        assert.equal(tokens.statusCode, 200, tokens.body);
      }
    } finally {
      await t.services.oauth.clients.modify(WEB_CLIENT.name, "client-secret", WEB_CLIENT.secret);
    }
  });

  it("oidcc-userinfo-get, oidcc-userinfo-post-header, oidcc-userinfo-post-body: UserInfo by GET and POST, the token in the header or the body", async () => {
    const browser = await loggedIn(t);
    const code = await codeFor(
      browser,
      `${AUTHORIZE}?${new URLSearchParams({ response_type: "code", client_id: WEB_CLIENT.clientId, redirect_uri: WEB_CLIENT.redirectUri, scope: "openid email", nonce: NONCE })}`,
    );
    const tokens = await tokenRequest(
      t,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    const token = tokens.json().access_token as string;
    const expected = { sub: "alice", email: "alice@example.com", email_verified: false };
    const byGet = await t.app.inject({ method: "GET", url: USERINFO, headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(byGet.json(), expected);
    const byPostHeader = await t.app.inject({ method: "POST", url: USERINFO, headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(byPostHeader.json(), expected);
    const byPostBody = await t.app.inject({
      method: "POST",
      url: USERINFO,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ access_token: token }).toString(),
    });
    assert.equal(byPostBody.statusCode, 200, byPostBody.body);
    assert.deepEqual(byPostBody.json(), expected);
    const refused = await t.app.inject({
      method: "POST",
      url: USERINFO,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ access_token: "x".repeat(64) }).toString(),
    });
    assert.equal(refused.statusCode, 401);
  });

  it("oidcc-ui-locales: the login and consent pages are in the language ui_locales asks for, when Keystream has it", async () => {
    const url = `${AUTHORIZE}?${new URLSearchParams({
      response_type: "code",
      client_id: WEB_CLIENT.clientId,
      redirect_uri: WEB_CLIENT.redirectUri,
      scope: "openid",
      nonce: NONCE,
      ui_locales: "tlh de-CH fr",
    })}`;
    const toLogin = await t.app.inject({ method: "GET", url, headers: { "accept-language": "en" } });
    assert.equal(toLogin.statusCode, 303);
    const loginPage = await t.app.inject({
      method: "GET",
      url: String(toLogin.headers.location),
      headers: { "accept-language": "en" },
    });
    assert.match(loginPage.body, /<html lang="de"/);
    const browser = await loggedIn(t);
    const consentPage = await browser.get(url, { "accept-language": "en" });
    assert.equal(consentPage.statusCode, 200);
    assert.match(consentPage.body, /<html lang="de"/);
  });
});
