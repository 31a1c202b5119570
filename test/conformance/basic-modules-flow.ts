import assert from "node:assert/strict";
import { it } from "node:test";
import { decodeProtectedHeader } from "jose";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import { AUTHORIZE, basic, loggedIn, refresh, TOKEN, tokenRequest, USERINFO, WEB_CLIENT } from "../oauth/support.js";
import { verifyIdToken } from "../oidc/support.js";
import { authorize, codeOf, NONCE, type Plan, redeem, requestUrl, STATE, signIn, type Tokens, userInfo } from "./support.js";

/**
 * The Basic OP plan's modules about the flow itself (OIDCCBasicTestPlan.java): the happy flow, the
 * ID token, UserInfo, scopes, code reuse, the redirect URI, client authentication, refresh and
 * PKCE. Each `it` is one module, named after it; `plan.mode` runs them as the Form Post plan too.
 */
export function flowModules(plan: Plan): void {
  it("oidcc-server: the code flow issues a code with state, then tokens and an RS256 ID token with iss, aud, sub, iat, exp, nonce and auth_time", async () => {
    const now = plan.t.clock.nowSeconds();
    const { tokens, idToken } = await signIn(plan);
    assert.equal(tokens.scope, "openid");
    assert.equal(idToken.aud, WEB_CLIENT.clientId);
    assert.equal(idToken.nonce, NONCE);
    assert.equal(idToken.iat, now);
    assert.ok((idToken.exp as number) > now);
    assert.equal(typeof idToken.auth_time, "number");
    assert.ok(idToken.at_hash);
  });

  it("oidcc-response-type-missing: a request without response_type is refused on an error page, never sent to the redirect URI", async () => {
    const browser = await loggedIn(plan.t);
    const response = await browser.get(requestUrl(plan, { response_type: undefined }));
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
    assert.doesNotMatch(response.body, /id="form-post"/);
    assert.match(response.body, /data-reason="invalid_parameters"/);
  });

  it("oidcc-idtoken-signature: the ID token is RS256-signed with a key of the JWKS (kid), and a changed payload fails verification", async () => {
    const { tokens } = await signIn(plan);
    const header = decodeProtectedHeader(tokens.id_token);
    assert.equal(header.alg, "RS256");
    const jwks = (await plan.t.app.inject({ method: "GET", url: "/index.php/apps/oauth2/jwks" })).json();
    assert.ok(
      jwks.keys.some((key: { kid: string }) => key.kid === header.kid),
      "the kid is published",
    );
    const [head, payload, signature] = tokens.id_token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: "mallory" })).toString("base64url")}.${signature}`;
    await assert.rejects(verifyIdToken(plan.t, forged));
  });

  it("oidcc-idtoken-unsigned (refused by design): only RS256 is advertised, never `none`, and every ID token is signed", async () => {
    const discovery = (
      await plan.t.app.inject({ method: "GET", url: "/index.php/apps/oauth2/.well-known/openid-configuration" })
    ).json();
    assert.deepEqual(discovery.id_token_signing_alg_values_supported, ["RS256"]);
    const { tokens } = await signIn(plan);
    assert.equal(decodeProtectedHeader(tokens.id_token).alg, "RS256");
  });

  const expectedEmailClaims = { sub: "alice", email: "alice@example.com", email_verified: false };

  it("oidcc-userinfo-get: UserInfo by GET with the access token in the Authorization header", async () => {
    const { tokens } = await signIn(plan, { scope: "openid email" });
    const response = await userInfo(plan, tokens.access_token);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), expectedEmailClaims);
  });

  it("oidcc-userinfo-post-header: UserInfo by POST with the access token in the Authorization header", async () => {
    const { tokens } = await signIn(plan, { scope: "openid email" });
    const response = await plan.t.app.inject({
      method: "POST",
      url: USERINFO,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.deepEqual(response.json(), expectedEmailClaims);
  });

  it("oidcc-userinfo-post-body: UserInfo by POST with the access token in the form body (RFC 6750 §2.2); an unknown token is 401", async () => {
    const { tokens } = await signIn(plan, { scope: "openid email" });
    const post = (token: string) =>
      plan.t.app.inject({
        method: "POST",
        url: USERINFO,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ access_token: token }).toString(),
      });
    const response = await post(tokens.access_token);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), expectedEmailClaims);
    assert.equal((await post("x".repeat(64))).statusCode, 401);
  });

  it("oidcc-ensure-request-without-nonce-succeeds-for-code-flow: without nonce the code flow succeeds and the ID token has none", async () => {
    const { idToken } = await signIn(plan, { nonce: undefined });
    assert.equal(idToken.nonce, undefined);
  });

  it("oidcc-scope-profile: scope profile gives name and preferred_username in UserInfo and the ID token", async () => {
    const { tokens, idToken } = await signIn(plan, { scope: "openid profile" });
    const claims = (await userInfo(plan, tokens.access_token)).json();
    assert.equal(claims.name, "Alice Liddell");
    assert.equal(claims.preferred_username, "alice");
    assert.equal(idToken.name, "Alice Liddell");
    assert.equal(claims.email, undefined);
  });

  it("oidcc-scope-email: scope email gives email and email_verified", async () => {
    const { tokens } = await signIn(plan, { scope: "openid email" });
    assert.deepEqual((await userInfo(plan, tokens.access_token)).json(), expectedEmailClaims);
  });

  for (const scope of ["address", "phone"]) {
    it(`oidcc-scope-${scope}: Keystream has no ${scope} claims, so the scope is not granted (RFC 6749 §3.3) and the sign-in still succeeds`, async () => {
      const { tokens } = await signIn(plan, { scope: `openid ${scope}` });
      assert.equal(tokens.scope, "openid", "the token response says what was granted");
      assert.deepEqual((await userInfo(plan, tokens.access_token)).json(), { sub: "alice" });
    });
  }

  it("oidcc-scope-all: profile, email, address and phone together give every claim Keystream has", async () => {
    const { tokens } = await signIn(plan, { scope: "openid profile email address phone" });
    assert.equal(tokens.scope, "openid profile email");
    const claims = (await userInfo(plan, tokens.access_token)).json();
    assert.deepEqual(Object.keys(claims).sort(), ["email", "email_verified", "name", "preferred_username", "sub"]);
  });

  it("oidcc-ensure-other-scope-order-succeeds: `email openid` is the same request as `openid email`", async () => {
    const { tokens } = await signIn(plan, { scope: "email openid" });
    assert.deepEqual((await userInfo(plan, tokens.access_token)).json(), expectedEmailClaims);
  });

  for (const display of ["page", "popup"]) {
    it(`oidcc-display-${display}: display=${display} is accepted (OIDC Core §3.1.2.1) and the pages work as usual`, async () => {
      await signIn(plan, { display });
    });
  }

  it("oidcc-ensure-request-with-unknown-parameter-succeeds: a parameter Keystream does not know is ignored", async () => {
    await signIn(plan, { extra: "foobar", another_one: "1" });
  });

  it("oidcc-codereuse: a code redeemed a second time is refused with invalid_grant", async () => {
    const code = await codeOf(plan, await loggedIn(plan.t), requestUrl(plan));
    await redeem(plan, code);
    const again = await tokenRequest(
      plan.t,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().error, "invalid_grant");
  });

  it("oidcc-codereuse-30seconds: a code reused 30 s later is refused and the tokens of its first redemption are revoked (RFC 6749 §4.1.2)", async () => {
    const code = await codeOf(plan, await loggedIn(plan.t), requestUrl(plan));
    const first: Tokens = await redeem(plan, code);
    assert.equal((await userInfo(plan, first.access_token)).statusCode, 200);
    plan.t.clock.advance(30);
    const again = await tokenRequest(
      plan.t,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().error, "invalid_grant");
    assert.equal((await userInfo(plan, first.access_token)).statusCode, 401, "the first access token is revoked");
    assert.equal((await refresh(plan.t, first.refresh_token)).json().error, "invalid_grant", "and its refresh token");
  });

  it("oidcc-ensure-registered-redirect-uri: an unregistered redirect_uri gets the error page; nothing is sent to it", async () => {
    const browser = await loggedIn(plan.t);
    const response = await browser.get(requestUrl(plan, { redirect_uri: "https://attacker.example/cb" }));
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
    assert.doesNotMatch(response.body, /attacker\.example\/cb"|id="form-post"/);
    assert.match(response.body, /data-reason="redirect_uri_mismatch"/);
  });

  it("oidcc-ensure-post-request-succeeds: an authorization request sent by POST (OIDC Core §3.1.2.1) is the same request as by GET", async () => {
    const browser = await loggedIn(plan.t);
    const params = Object.fromEntries(new URL(requestUrl(plan, { scope: "openid profile" }), "http://x").searchParams);
    const posted = await browser.post(AUTHORIZE, params);
    assert.equal(posted.statusCode, 303, posted.body);
    const location = String(posted.headers.location);
    assert.equal(new URL(location, "http://x").pathname, AUTHORIZE);
    const code = (await authorize(plan, browser, location)).get("code");
    assert.ok(code);
    const claims = await verifyIdToken(plan.t, (await redeem(plan, code)).id_token);
    assert.equal(claims.nonce, NONCE);
  });

  it("oidcc-server-client-secret-post: client_id and client_secret in the body, without PKCE; a wrong secret is 401 invalid_client", async () => {
    const code = await codeOf(plan, await loggedIn(plan.t), requestUrl(plan));
    const body = { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri, client_id: WEB_CLIENT.clientId };
    const wrong = await tokenRequest(plan.t, { ...body, client_secret: `${WEB_CLIENT.secret}x` });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error, "invalid_client");
    const tokens = await plan.t.app.inject({
      method: "POST",
      url: TOKEN,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ ...body, client_secret: WEB_CLIENT.secret }).toString(),
    });
    assert.equal(tokens.statusCode, 200, tokens.body);
    await verifyIdToken(plan.t, tokens.json().id_token);
  });

  it("oidcc-refresh-token: a refresh gives new tokens and an ID token of the same iss, sub and aud, without nonce (OIDC Core §12.2)", async () => {
    const { tokens, idToken } = await signIn(plan, { scope: "openid offline_access" });
    plan.t.clock.advance(60);
    const response = await refresh(plan.t, tokens.refresh_token);
    assert.equal(response.statusCode, 200, response.body);
    const refreshed = response.json();
    assert.notEqual(refreshed.access_token, tokens.access_token);
    const claims = await verifyIdToken(plan.t, refreshed.id_token);
    assert.deepEqual([claims.iss, claims.sub, claims.aud], [idToken.iss, idToken.sub, idToken.aud]);
    assert.equal(claims.nonce, undefined);
    assert.equal((await userInfo(plan, refreshed.access_token)).statusCode, 200);
  });

  it("oidcc-ensure-request-with-valid-pkce-succeeds: an S256 challenge and its verifier (RFC 7636) redeem the code", async () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const code = await codeOf(
      plan,
      await loggedIn(plan.t),
      requestUrl(plan, { code_challenge: s256Challenge(verifier), code_challenge_method: "S256" }),
    );
    const body = { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri };
    const auth = { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) };
    const response = await tokenRequest(plan.t, { ...body, code_verifier: verifier }, auth);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().token_type, "Bearer");
  });

  it("OAuth 2.0 Multiple Response Types §2.1: an unsupported response_mode is invalid_request, answered in the response type's default mode", async () => {
    const browser = await loggedIn(plan.t);
    const response = await browser.get(requestUrl(plan, { response_mode: "web_message" }));
    assert.equal(response.statusCode, 303);
    const params = new URL(String(response.headers.location)).searchParams;
    assert.equal(params.get("error"), "invalid_request");
    assert.equal(params.get("state"), STATE);
    assert.equal(params.get("code"), null);
  });
}
