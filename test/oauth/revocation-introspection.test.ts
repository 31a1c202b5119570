import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { INTROSPECTION_PATH, REVOCATION_PATH } from "../../src/http/oauth-paths.js";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import type { TestApp } from "../support/app.js";
import {
  addClient,
  basic,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  refresh,
  type TestClient,
  tokenRequest,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

const OTHER: TestClient = {
  name: "Other",
  clientId: "revocation-other-client-0123456789abcdef",
  secret: "revocation-other-secret-0123456789abcdefghij",
  redirectUri: "https://other.example.net/cb",
};

type Pair = { access_token: string; refresh_token: string };

function post(t: TestApp, url: string, form: Record<string, string>, authorization?: string) {
  return t.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
    payload: new URLSearchParams(form).toString(),
  });
}

describe("RFC 7009 revocation: POST /index.php/apps/oauth2/api/v1/revoke", () => {
  let t: TestApp;
  const asWeb = basic(WEB_CLIENT.clientId, WEB_CLIENT.secret);
  const fresh = async (): Promise<Pair> => (await exchangeCode(t, await issueCode(t))).json();
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, OTHER);
  });
  after(() => t.close());

  it("revoking an access token: 200 with an empty body, the token dies, its refresh token still works", async () => {
    const pair = await fresh();
    const response = await post(t, REVOCATION_PATH, { token: pair.access_token, token_type_hint: "access_token" }, asWeb);
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, "");
    assert.equal(response.headers["cache-control"], "no-store");
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 401);
    assert.equal((await refresh(t, pair.refresh_token)).statusCode, 200);
  });

  it("revoking a refresh token revokes its grant: the access token dies too", async () => {
    const pair = await fresh();
    const response = await post(t, REVOCATION_PATH, { token: pair.refresh_token }, asWeb);
    assert.equal(response.statusCode, 200);
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 401);
    assert.equal((await refresh(t, pair.refresh_token)).statusCode, 400);
  });

  it("a wrong hint only changes the search order (§2.1)", async () => {
    const pair = await fresh();
    assert.equal(
      (await post(t, REVOCATION_PATH, { token: pair.refresh_token, token_type_hint: "access_token" }, asWeb)).statusCode,
      200,
    );
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 401);
    const other = await fresh();
    assert.equal(
      (await post(t, REVOCATION_PATH, { token: other.access_token, token_type_hint: "refresh_token" }, asWeb)).statusCode,
      200,
    );
    assert.equal((await userinfo(t, other.access_token)).statusCode, 401);
  });

  it("an unknown (or already revoked) token answers 200 (§2.2)", async () => {
    assert.equal((await post(t, REVOCATION_PATH, { token: "z".repeat(64) }, asWeb)).statusCode, 200);
    const pair = await fresh();
    await post(t, REVOCATION_PATH, { token: pair.refresh_token }, asWeb);
    assert.equal((await post(t, REVOCATION_PATH, { token: pair.refresh_token }, asWeb)).statusCode, 200);
  });

  it("another client's token is refused and survives", async () => {
    const pair = await fresh();
    const response = await post(t, REVOCATION_PATH, { token: pair.access_token }, basic(OTHER.clientId, OTHER.secret));
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, "invalid_request");
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 200);
  });

  it("client authentication as at the token endpoint: none → 400 invalid_request, a wrong secret → 401", async () => {
    const pair = await fresh();
    const anonymous = await post(t, REVOCATION_PATH, { token: pair.access_token });
    assert.equal(anonymous.statusCode, 400);
    assert.deepEqual(anonymous.json(), { error: "invalid_request" });
    const wrong = await post(t, REVOCATION_PATH, { token: pair.access_token }, basic(WEB_CLIENT.clientId, "nope"));
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error, "invalid_client");
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 200);
  });

  it("the token parameter is required", async () => {
    const response = await post(t, REVOCATION_PATH, {}, asWeb);
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, "invalid_request");
  });

  it("a public client revokes its PKCE grant with client_id alone, but not a grant obtained with the secret", async () => {
    const verifier = "revocation-public-verifier-0123456789abcdefghijklmnop";
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(verifier), code_challenge_method: "S256" });
    const publicPair = (
      await tokenRequest(t, {
        grant_type: "authorization_code",
        code,
        redirect_uri: WEB_CLIENT.redirectUri,
        client_id: WEB_CLIENT.clientId,
        code_verifier: verifier,
      })
    ).json() as Pair;
    assert.equal(
      (await post(t, REVOCATION_PATH, { token: publicPair.refresh_token, client_id: WEB_CLIENT.clientId })).statusCode,
      200,
    );
    assert.equal((await userinfo(t, publicPair.access_token)).statusCode, 401);
    const confidential = await fresh();
    const refused = await post(t, REVOCATION_PATH, { token: confidential.refresh_token, client_id: WEB_CLIENT.clientId });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error, "invalid_client");
    assert.equal((await userinfo(t, confidential.access_token)).statusCode, 200);
  });
});

describe("RFC 7662 introspection: POST /index.php/apps/oauth2/api/v1/introspect", () => {
  let t: TestApp;
  const asOther = basic(OTHER.clientId, OTHER.secret);
  before(async () => {
    t = await createOAuthTestApp();
    // OTHER introspects WEB_CLIENT's tokens: only a resource server may (issue 16; the rule's own
    // tests are in introspection-audience.test.ts).
    await addClient(t, { ...OTHER, resourceServer: true });
  });
  after(() => t.close());

  it("an access token: active, scope, client_id, username, sub, exp, iat, token_type", async () => {
    const now = t.clock.nowSeconds();
    const pair = (await exchangeCode(t, await issueCode(t))).json() as Pair;
    const response = await post(t, INTROSPECTION_PATH, { token: pair.access_token }, asOther);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["cache-control"], "no-store");
    assert.deepEqual(response.json(), {
      active: true,
      scope: "account",
      aud: WEB_CLIENT.clientId,
      client_id: WEB_CLIENT.clientId,
      username: "alice",
      sub: "alice",
      exp: now + 3600,
      iat: now,
      token_type: "Bearer",
      iss: "http://localhost:80/index.php/apps/oauth2",
    });
  });

  it("a refresh token is active until rotated; then only {active:false}", async () => {
    const pair = (await exchangeCode(t, await issueCode(t))).json() as Pair;
    const live = (
      await post(t, INTROSPECTION_PATH, { token: pair.refresh_token, token_type_hint: "refresh_token" }, asOther)
    ).json();
    assert.equal(live.active, true);
    assert.equal(live.token_type, "refresh_token");
    assert.equal(live.exp, t.clock.nowSeconds() + 90 * 86_400);
    await refresh(t, pair.refresh_token);
    assert.deepEqual((await post(t, INTROSPECTION_PATH, { token: pair.refresh_token }, asOther)).json(), { active: false });
    assert.deepEqual((await post(t, INTROSPECTION_PATH, { token: pair.access_token }, asOther)).json(), { active: false });
  });

  it("a revoked token is inactive", async () => {
    const pair = (await exchangeCode(t, await issueCode(t))).json() as Pair;
    await post(t, REVOCATION_PATH, { token: pair.access_token }, basic(WEB_CLIENT.clientId, WEB_CLIENT.secret));
    assert.deepEqual((await post(t, INTROSPECTION_PATH, { token: pair.access_token }, asOther)).json(), { active: false });
  });

  it("only confidential clients with Basic may ask: a public client_id is 401 invalid_client", async () => {
    const pair = (await exchangeCode(t, await issueCode(t))).json() as Pair;
    const response = await post(t, INTROSPECTION_PATH, { token: pair.access_token, client_id: WEB_CLIENT.clientId });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().error, "invalid_client");
    assert.match(String(response.headers["www-authenticate"]), /^Basic /);
  });
});
