import assert from "node:assert/strict";
import { it } from "node:test";
import { loggedIn } from "../oauth/support.js";
import { verifyIdToken } from "../oidc/support.js";
import { FormClient } from "../support/browser-form.js";
import { answerOf, authorize, loginThrough, type Plan, redeem, requestUrl, STATE, signIn, userInfo } from "./support.js";

/** An error answered at the redirect URI in the plan's response mode, with the request's state and no code. */
function assertError(params: URLSearchParams, error: string): void {
  assert.equal(params.get("error"), error, params.toString());
  assert.equal(params.get("state"), STATE);
  assert.equal(params.get("code"), null);
}

/** An unsigned request object (alg `none`, OIDC Core §6.1) carrying the given claims. */
function unsignedRequestObject(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none" })}.${part(claims)}.`;
}

/**
 * The Basic OP plan's modules about the authorization request's parameters (OIDCCBasicTestPlan.java):
 * prompt, max_age, hints, locales, acr_values, request objects and the claims parameter. Each `it`
 * is one module, named after it.
 */
export function requestModules(plan: Plan): void {
  it("oidcc-prompt-login: prompt=login shows the login form to a logged-in user; the new login is the ID token's auth_time", async () => {
    const { idToken: first, browser } = await signIn(plan);
    plan.t.clock.advance(5);
    const response = await browser.get(requestUrl(plan, { prompt: "login" }));
    assert.equal(response.statusCode, 303);
    assert.match(String(response.headers.location), /^\/index\.php\/login\?/);
    const back = await loginThrough(browser, String(response.headers.location));
    const code = (await authorize(plan, browser, back)).get("code");
    assert.ok(code);
    const second = await verifyIdToken(plan.t, (await redeem(plan, code)).id_token);
    assert.equal(second.auth_time, (first.auth_time as number) + 5);
  });

  it("oidcc-prompt-none-not-logged-in: prompt=none without a session answers login_required at the redirect URI, no page", async () => {
    assertError(answerOf(plan, await new FormClient(plan.t.app).get(requestUrl(plan, { prompt: "none" }))), "login_required");
  });

  it("oidcc-prompt-none-logged-in: prompt=none with a session and earlier consent issues a code without any page", async () => {
    const { browser, idToken } = await signIn(plan);
    const response = await browser.get(requestUrl(plan, { prompt: "none" }));
    const code = answerOf(plan, response).get("code");
    assert.ok(code);
    const again = await verifyIdToken(plan.t, (await redeem(plan, code)).id_token);
    assert.equal(again.sub, idToken.sub);
  });

  it("oidcc-max-age-1: a login older than max_age=1 is repeated, and auth_time is the new login", async () => {
    const { browser } = await signIn(plan);
    plan.t.clock.advance(2);
    const response = await browser.get(requestUrl(plan, { max_age: "1" }));
    assert.equal(response.statusCode, 303);
    const back = await loginThrough(browser, String(response.headers.location));
    const code = (await authorize(plan, browser, back)).get("code");
    assert.ok(code);
    const idToken = await verifyIdToken(plan.t, (await redeem(plan, code)).id_token);
    assert.equal(idToken.auth_time, plan.t.clock.nowSeconds());
  });

  it("oidcc-max-age-10000: a login younger than max_age=10000 is not repeated; auth_time is the earlier login", async () => {
    const { browser, idToken: first } = await signIn(plan);
    plan.t.clock.advance(60);
    const { idToken } = await signIn(plan, { max_age: "10000" }, browser);
    assert.equal(idToken.auth_time, first.auth_time);
  });

  it("oidcc-id-token-hint: prompt=none with the previous ID token as id_token_hint signs the same user in silently", async () => {
    const { browser, tokens, idToken } = await signIn(plan);
    const code = answerOf(plan, await browser.get(requestUrl(plan, { prompt: "none", id_token_hint: tokens.id_token }))).get(
      "code",
    );
    assert.ok(code);
    assert.equal((await verifyIdToken(plan.t, (await redeem(plan, code)).id_token)).sub, idToken.sub);
  });

  it("oidcc-login-hint: login_hint fills in the login form's user name", async () => {
    const anonymous = new FormClient(plan.t.app);
    const response = await anonymous.get(requestUrl(plan, { login_hint: "alice" }));
    assert.equal(response.statusCode, 303);
    const page = await anonymous.get(String(response.headers.location));
    assert.match(page.body, /value="alice"/);
  });

  it("oidcc-ui-locales: the login and consent pages are in the language ui_locales asks for, when Keystream has it", async () => {
    const url = requestUrl(plan, { ui_locales: "tlh de-CH fr" });
    const toLogin = await plan.t.app.inject({ method: "GET", url, headers: { "accept-language": "en" } });
    assert.equal(toLogin.statusCode, 303);
    const loginPage = await plan.t.app.inject({
      method: "GET",
      url: String(toLogin.headers.location),
      headers: { "accept-language": "en" },
    });
    assert.match(loginPage.body, /<html lang="de"/);
    const consentPage = await (await loggedIn(plan.t)).get(url, { "accept-language": "en" });
    assert.equal(consentPage.statusCode, 200);
    assert.match(consentPage.body, /<html lang="de"/);
  });

  it("oidcc-claims-locales: claims_locales is accepted (and not acted on: Keystream's claims have one language)", async () => {
    const { tokens } = await signIn(plan, { scope: "openid profile", claims_locales: "de fr" });
    assert.equal((await userInfo(plan, tokens.access_token)).json().name, "Alice Liddell");
  });

  it("oidcc-ensure-request-with-acr-values-succeeds: acr_values is accepted and not acted on (OIDC Core §3.1.2.1: voluntary)", async () => {
    const { idToken } = await signIn(plan, { acr_values: "1 2" });
    assert.equal(idToken.acr, undefined);
  });

  it("oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported (refused by design): request_uri answers request_uri_not_supported", async () => {
    const browser = await loggedIn(plan.t);
    const response = await browser.get(requestUrl(plan, { request_uri: "https://client.example.com/request.jwt" }));
    assertError(answerOf(plan, response), "request_uri_not_supported");
  });

  it("oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported (refused by design): request answers request_not_supported", async () => {
    const browser = await loggedIn(plan.t);
    const request = unsignedRequestObject({ response_type: "code", scope: "openid", state: STATE, nonce: "n" });
    assertError(answerOf(plan, await browser.get(requestUrl(plan, { request }))), "request_not_supported");
  });

  it("oidcc-ensure-request-object-with-redirect-uri (refused by design): a request object carrying redirect_uri is not read either", async () => {
    const browser = await loggedIn(plan.t);
    const request = unsignedRequestObject({ redirect_uri: "https://attacker.example/cb", scope: "openid", state: STATE });
    assertError(answerOf(plan, await browser.get(requestUrl(plan, { request }))), "request_not_supported");
  });

  it("oidcc-claims-essential: a claims request for an essential name in UserInfo is honoured though scope is only openid (OIDC Core §5.5)", async () => {
    const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
    const browser = await loggedIn(plan.t);
    const consentPage = await browser.get(requestUrl(plan, { claims }));
    assert.match(
      consentPage.body,
      /<ul class="scopes" id="oauth-scopes">.*<li>.*<\/li>.*<li>/s,
      "the consent page says what is disclosed",
    );
    const { tokens } = await signIn(plan, { claims }, browser);
    assert.equal(tokens.scope, "openid profile", "the token response says what was granted");
    const userinfo = (await userInfo(plan, tokens.access_token)).json();
    assert.equal(userinfo.name, "Alice Liddell");
    assert.equal(userinfo.email, undefined);
  });

  it("OIDC Core §5.5: an id_token member's claim is in the ID token; unknown claims and acr with essential are ignored", async () => {
    const claims = JSON.stringify({
      id_token: { email: null, acr: { essential: true, values: ["urn:mace:incommon:iap:silver"] }, shoe_size: null },
    });
    const { idToken } = await signIn(plan, { claims });
    assert.equal(idToken.email, "alice@example.com");
    assert.equal(idToken.acr, undefined);
  });

  it("OIDC Core §5.5: a claims parameter that is not a JSON object of objects is invalid_request at the redirect URI", async () => {
    const browser = await loggedIn(plan.t);
    for (const claims of ["{not json", "[]", '{"userinfo":"name"}', '{"userinfo":{"name":true}}']) {
      assertError(answerOf(plan, await browser.get(requestUrl(plan, { claims }))), "invalid_request");
    }
  });

  it("OIDC Core §5.5.1: an id_token sub value is answered only for that user: another user logged in is login_required with prompt=none, the login form without", async () => {
    const { browser } = await signIn(plan);
    const forBob = JSON.stringify({ id_token: { sub: { value: "bob" } } });
    assertError(answerOf(plan, await browser.get(requestUrl(plan, { prompt: "none", claims: forBob }))), "login_required");
    const login = await browser.get(requestUrl(plan, { claims: forBob }));
    assert.equal(login.statusCode, 303);
    assert.match(String(login.headers.location), /^\/index\.php\/login\?/);
    const forAlice = JSON.stringify({ id_token: { sub: { value: "alice" } } });
    assert.ok(answerOf(plan, await browser.get(requestUrl(plan, { prompt: "none", claims: forAlice }))).get("code"));
  });
}
