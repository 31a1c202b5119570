import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AUTHORIZE, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOidcTestApp } from "./support.js";

/**
 * OIDC Core §3.1.2.1: the authorization endpoint MUST support GET and POST. A relying party that
 * sends its request by POST (mod_auth_openidc's OIDCProviderAuthRequestMethod POST) does so from a
 * browser that usually has no session yet: the request must survive the login page.
 */
describe(`authorization requests by POST from a browser nobody is logged in on (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  const params = {
    response_type: "code",
    client_id: WEB_CLIENT.clientId,
    redirect_uri: WEB_CLIENT.redirectUri,
    scope: "openid profile",
    state: "posted-state",
    nonce: "posted-nonce",
  };

  it("an authorization request sent by POST without a session keeps its parameters through the login page to the consent page", async () => {
    const browser = new FormClient(t.app);
    const posted = await browser.post(AUTHORIZE, params);
    assert.equal(posted.statusCode, 303, posted.body);
    const asGet = new URL(String(posted.headers.location), "http://localhost");
    assert.equal(asGet.pathname, AUTHORIZE);
    assert.deepEqual(Object.fromEntries(asGet.searchParams), params, "the same request, as its GET");

    const toLogin = await browser.get(`${asGet.pathname}${asGet.search}`);
    assert.equal(toLogin.statusCode, 303);
    const loginUrl = new URL(String(toLogin.headers.location), "http://localhost");
    assert.equal(loginUrl.pathname, "/index.php/login");
    const back = loginUrl.searchParams.get("redirect_url") ?? "";
    const loginPage = await browser.get(`${loginUrl.pathname}${loginUrl.search}`);
    const login = await browser.post("/index.php/login", {
      user: "alice",
      password: PASSWORD,
      requesttoken: requestTokenOf(loginPage.body),
      redirect_url: back,
    });
    assert.equal(login.statusCode, 303);
    const consent = await browser.get(String(login.headers.location));
    assert.equal(consent.statusCode, 200, consent.body);
    assert.match(consent.body, /id="oauth-consent"/);
    const decision = await browser.post(String(login.headers.location), { requesttoken: requestTokenOf(consent.body) });
    assert.equal(decision.statusCode, 303);
    const callback = new URL(String(decision.headers.location));
    assert.equal(`${callback.origin}${callback.pathname}`, WEB_CLIENT.redirectUri);
    assert.equal(callback.searchParams.get("state"), "posted-state");
    assert.ok(callback.searchParams.get("code"));
  });

  it("a POST to the authorization endpoint with neither a query nor an authorization request in its body is the 'Request not valid' page, 400", async () => {
    const browser = new FormClient(t.app);
    const response = await browser.post(AUTHORIZE, { requesttoken: "whatever" });
    assert.equal(response.statusCode, 400);
    assert.match(response.body, /Request not valid/);
  });
});
