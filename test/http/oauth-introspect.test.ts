import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { INTROSPECTION_PATH } from "../../src/http/oauth-paths.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const DESKTOP = {
  id: "xdXOt13JKxym1B1QcEncf2XDkLAexMBFwiT9j6EfhhHFJhs2KM9jbjTmf8JBXE69",
  secret: "UBntmLjC2yYCeHwsyj73Uwo9TAaecAetRwMw0xYcvNL9yRdLSUi0hUAHfvCHFeFh",
};
const RESOURCE_SERVER = {
  name: "File server",
  id: "file-server-introspection-client-0123456789",
  secret: "file-server-introspection-secret-0123456789abcdef",
};

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

describe("POST /index.php/apps/oauth2/api/v1/introspect (RFC 7662)", () => {
  let t: TestApp;
  let accessToken: string;

  const introspect = (token: string, authorization = basic(RESOURCE_SERVER.id, RESOURCE_SERVER.secret)) =>
    t.app.inject({
      method: "POST",
      url: INTROSPECTION_PATH,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization },
      payload: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    });

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "correct horse", displayName: "Alice A" }));
    const added = await t.services.oauth.clients.add({
      name: RESOURCE_SERVER.name,
      clientId: RESOURCE_SERVER.id,
      secret: RESOURCE_SERVER.secret,
      redirectUri: "https://files.example.org/unused",
      allowSubdomains: "false",
      trusted: "false",
      forceTrust: undefined,
      // It introspects the Desktop client's tokens: only a resource server may (issue 16).
      resourceServer: "true",
    });
    assert.ok(added.ok);

    // The desktop client's flow, as in test/clients: login, consent, code, token (PKCE S256).
    const verifier = randomBytes(48).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const query = new URLSearchParams({
      response_type: "code",
      client_id: DESKTOP.id,
      redirect_uri: "http://localhost:41234",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "c3RhdGU=",
    });
    const authorizeUrl = `/index.php/apps/oauth2/authorize?${query}`;
    const browser = new FormClient(t.app);
    await browser.login("alice", "correct horse", authorizeUrl);
    const consent = await browser.get(authorizeUrl);
    assert.equal(consent.statusCode, 200);
    const approved = await browser.post(authorizeUrl, { requesttoken: requestTokenOf(consent.body) });
    const code = new URL(String(approved.headers.location)).searchParams.get("code");
    assert.ok(code, `a code in ${approved.headers.location}`);
    const token = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/token",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(DESKTOP.id, DESKTOP.secret) },
      payload: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: "http://localhost:41234",
        code_verifier: verifier,
      }).toString(),
    });
    assert.equal(token.statusCode, 200, token.body);
    accessToken = token.json().access_token;
  });
  after(() => t.close());

  it("says active, with the user and the client the token was issued to", async () => {
    const response = await introspect(accessToken);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["cache-control"], "no-store");
    const issuedAt = t.clock.nowSeconds();
    assert.deepEqual(response.json(), {
      active: true,
      scope: "account",
      aud: DESKTOP.id,
      client_id: DESKTOP.id,
      username: "alice",
      sub: "alice",
      exp: issuedAt + 3600,
      iat: issuedAt,
      token_type: "Bearer",
      iss: "http://localhost:80/index.php/apps/oauth2",
    });
  });

  it("says only active:false for an unknown token", async () => {
    const response = await introspect("x".repeat(64));
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { active: false });
  });

  it("says active:false once the token expired (access tokens live 3600 s)", async () => {
    t.clock.advance(3601);
    try {
      assert.deepEqual((await introspect(accessToken)).json(), { active: false });
    } finally {
      t.clock.advance(-3601);
    }
  });

  it("says active:false for the token of a disabled user", async () => {
    accepted(await t.services.users.setEnabled("alice", false));
    try {
      assert.deepEqual((await introspect(accessToken)).json(), { active: false });
    } finally {
      accepted(await t.services.users.setEnabled("alice", true));
    }
    assert.equal((await introspect(accessToken)).json().active, true);
  });

  it("refuses callers without valid client credentials (401 invalid_client), so it is no token oracle", async () => {
    for (const authorization of ["", basic(RESOURCE_SERVER.id, "wrong-secret"), basic("nobody", "x"), `Bearer ${accessToken}`]) {
      const response = await introspect(accessToken, authorization);
      assert.equal(response.statusCode, 401, authorization);
      assert.equal(response.json().error, "invalid_client");
      assert.match(String(response.headers["www-authenticate"]), /^Basic realm=/);
    }
  });

  it("answers 400 invalid_request without a token", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: INTROSPECTION_PATH,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(RESOURCE_SERVER.id, RESOURCE_SERVER.secret),
      },
      payload: "",
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, "invalid_request");
  });
});
