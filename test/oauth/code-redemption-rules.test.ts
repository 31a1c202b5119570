import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import type { TestApp } from "../support/app.js";
import { testDatabaseDialect } from "../support/storage.js";
import {
  addClient,
  authorizeUrl,
  basic,
  consent,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  loggedIn,
  refresh,
  type TestClient,
  tokenRequest,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

/**
 * Issue 16, security review findings 3–5: a used code revokes its grant only for the client it was
 * issued to, proving itself as a redemption must; the code is bound to its authorization request's
 * redirect URI (RFC 6749 §4.1.3); PKCE input is validated (RFC 7636 §4.1–§4.4.1, §4.6).
 */

const OTHER_CLIENT: TestClient = {
  name: "Other App",
  clientId: "otherclientid0123456789abcdefghijklmnopqrst",
  secret: "otherclientsecret0123456789abcdefghijklmnopq",
  redirectUri: "https://other.example.com/cb",
};
const SUBDOMAINS: TestClient & { allowSubdomains: boolean } = {
  name: "Sub App",
  clientId: "subdomainclientid0123456789abcdefghijklmnop",
  secret: "subdomainclientsecret0123456789abcdefghijklm",
  redirectUri: "https://client.example/cb",
  allowSubdomains: true,
};
const LOCALHOST: TestClient = {
  name: "Local App",
  clientId: "localclientid0123456789abcdefghijklmnopqrstu",
  secret: "localclientsecret0123456789abcdefghijklmnopq",
  redirectUri: "http://localhost:*",
};

/** RFC 7636 Appendix B. */
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const S256 = { code_challenge: RFC_CHALLENGE, code_challenge_method: "S256" };
const ISS = `iss=${encodeURIComponent("http://localhost:80/index.php/apps/oauth2")}`;

type Pair = { access_token: string; refresh_token: string };

/** The code's client, authenticated with client_id alone (the public path), with these parameters. */
function publicExchange(t: TestApp, code: string, extra: Record<string, string>, client: TestClient = WEB_CLIENT) {
  return tokenRequest(t, {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    ...extra,
  });
}

async function redeemed(t: TestApp, code: string, extra: Record<string, string> = {}): Promise<Pair> {
  const response = await exchangeCode(t, code, extra);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

async function assertAlive(t: TestApp, pair: Pair, why: string): Promise<void> {
  assert.equal((await userinfo(t, pair.access_token)).statusCode, 200, `${why}: the access token still works`);
  assert.equal((await refresh(t, pair.refresh_token)).statusCode, 200, `${why}: the refresh token still works`);
}

const DOES_NOT_EXIST = { error: "invalid_grant", error_description: "authorization code does not exist" };

describe(`a used code revokes only for its proven client (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, OTHER_CLIENT);
  });
  after(() => t.close());

  it("a used code presented by another client answers `authorization code does not exist` and revokes nothing", async () => {
    const code = await issueCode(t);
    const pair = await redeemed(t, code);
    const response = await exchangeCode(t, code, { redirect_uri: OTHER_CLIENT.redirectUri }, OTHER_CLIENT);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), DOES_NOT_EXIST);
    await assertAlive(t, pair, "another client's replay");
  });

  it("a used code presented with client_id alone (no secret, no verifier) revokes nothing", async () => {
    // The review's reproduction: the code leaked (history, logs, Referer), the client id is public.
    const code = await issueCode(t);
    const pair = await redeemed(t, code);
    const response = await publicExchange(t, code, {});
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), DOES_NOT_EXIST);
    await assertAlive(t, pair, "a secret-less replay of a code without PKCE");
  });

  it("a used PKCE code presented with client_id and a wrong or missing verifier revokes nothing", async () => {
    const code = await issueCode(t, WEB_CLIENT, S256);
    const pair = await redeemed(t, code, { code_verifier: RFC_VERIFIER });
    const attempts: Array<Record<string, string>> = [
      {},
      { code_verifier: "" },
      { code_verifier: `${RFC_VERIFIER.slice(0, -1)}x` },
    ];
    for (const extra of attempts) {
      const response = await publicExchange(t, code, extra);
      assert.deepEqual(response.json(), DOES_NOT_EXIST, JSON.stringify(extra));
    }
    await assertAlive(t, pair, "a replay without the verifier");
  });

  it("a used code presented with another redirect_uri, or past its lifetime, revokes nothing", async () => {
    const code = await issueCode(t);
    const pair = await redeemed(t, code);
    const otherUri = await exchangeCode(t, code, { redirect_uri: "https://app.example.com/other" });
    assert.deepEqual(otherUri.json(), DOES_NOT_EXIST);
    t.clock.advance(600);
    assert.deepEqual((await exchangeCode(t, code)).json(), DOES_NOT_EXIST);
    await assertAlive(t, pair, "a replay that would not have redeemed the code");
  });

  it("a used code presented by its client with its secret still revokes the grant", async () => {
    const code = await issueCode(t);
    const pair = await redeemed(t, code);
    assert.deepEqual((await exchangeCode(t, code)).json(), DOES_NOT_EXIST);
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 401);
    assert.equal((await refresh(t, pair.refresh_token)).statusCode, 400);
  });

  it("a used PKCE code presented by its client on the public path with the right verifier still revokes the grant", async () => {
    const code = await issueCode(t, WEB_CLIENT, S256);
    const first = await publicExchange(t, code, { code_verifier: RFC_VERIFIER });
    assert.equal(first.statusCode, 200, first.body);
    const replay = await publicExchange(t, code, { code_verifier: RFC_VERIFIER });
    assert.deepEqual(replay.json(), DOES_NOT_EXIST);
    assert.equal((await userinfo(t, first.json().access_token)).statusCode, 401);
  });
});

describe(`the code is bound to its authorization request's redirect_uri (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, SUBDOMAINS);
    await addClient(t, LOCALHOST);
  });
  after(() => t.close());

  async function codeFor(client: TestClient, redirectUri: string): Promise<string> {
    const browser = await loggedIn(t);
    const location = await consent(browser, authorizeUrl(client, { redirect_uri: redirectUri }));
    const code = new URL(location).searchParams.get("code");
    assert.ok(code, location);
    return code;
  }

  it("the token request's redirect_uri must be the authorization request's, not merely one the registration allows", async () => {
    const cases: Array<[TestClient, string, string]> = [
      [SUBDOMAINS, "https://a.client.example/cb", "https://b.client.example/cb"],
      [SUBDOMAINS, "https://a.client.example/cb", "https://client.example/cb"],
      [LOCALHOST, "http://localhost:1234", "http://localhost:5678"],
    ];
    for (const [client, authorized, other] of cases) {
      const code = await codeFor(client, authorized);
      const refused = await exchangeCode(t, code, { redirect_uri: other }, client);
      assert.equal(refused.statusCode, 400, other);
      assert.deepEqual(refused.json(), { error: "invalid_grant", error_description: "auth grant redirect uri invalid" }, other);
      const accepted = await exchangeCode(t, code, { redirect_uri: authorized }, client);
      assert.equal(accepted.statusCode, 200, `the refusal left the code in place: ${accepted.body}`);
    }
  });

  it("the redirect_uri is compared as both endpoints decode it (once more than the query)", async () => {
    // research A.3: a supplied redirect URI is URL-decoded once more at both endpoints.
    const code = await codeFor(LOCALHOST, encodeURIComponent("http://localhost:4321"));
    const response = await exchangeCode(t, code, { redirect_uri: "http://localhost:4321" }, LOCALHOST);
    assert.equal(response.statusCode, 200, response.body);
  });

  it("the code stores the authorization request's redirect_uri", async () => {
    const code = await codeFor(SUBDOMAINS, "https://deep.a.client.example/cb");
    const row = await t.services.storage.db
      .selectFrom("oauth2_codes")
      .select("redirect_uri")
      .where("code_hash", "=", sha256Hex(code))
      .executeTakeFirstOrThrow();
    assert.equal(row.redirect_uri, "https://deep.a.client.example/cb");
  });

  it("a code issued before the binding (no stored redirect_uri) is refused", async () => {
    const code = await issueCode(t);
    await t.services.storage.db
      .updateTable("oauth2_codes")
      .set({ redirect_uri: null })
      .where("code_hash", "=", sha256Hex(code))
      .execute();
    const response = await exchangeCode(t, code);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "auth grant redirect uri invalid" });
  });
});

describe(`PKCE input is validated (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const codeCount = async () => (await t.services.storage.db.selectFrom("oauth2_codes").select("code_hash").execute()).length;

  /** GET authorize as alice; the answer must be the invalid_request redirect, and no code is written. */
  async function assertRefusedAtAuthorize(params: Record<string, string>): Promise<void> {
    const before = await codeCount();
    const browser = await loggedIn(t);
    const response = await browser.get(authorizeUrl(WEB_CLIENT, { state: "s t", ...params }));
    assert.equal(response.statusCode, 303, `${JSON.stringify(params)}: ${response.body}`);
    assert.equal(
      response.headers.location,
      `${WEB_CLIENT.redirectUri}?error=invalid_request&state=s%20t&${ISS}`,
      JSON.stringify(params),
    );
    assert.equal(await codeCount(), before, "no code was issued");
  }

  it("the authorization endpoint refuses a code_challenge_method other than S256 or plain (invalid_request at the redirect URI)", async () => {
    for (const method of ["S512", "s256", "PLAIN", "none"]) {
      await assertRefusedAtAuthorize({ code_challenge: RFC_CHALLENGE, code_challenge_method: method });
    }
  });

  it("the authorization endpoint refuses a code_challenge that is not 43–128 unreserved characters", async () => {
    const plain = (challenge: string) => ({ code_challenge: challenge, code_challenge_method: "plain" });
    for (const params of [
      plain("x"),
      plain("a".repeat(42)),
      plain("a".repeat(129)),
      plain(`${"a".repeat(42)} `),
      plain(`${"a".repeat(42)}é`),
      plain(`${"a".repeat(42)}+`),
      { code_challenge: "a".repeat(42) }, // no method: plain (RFC 7636 §4.3)
    ]) {
      await assertRefusedAtAuthorize(params);
    }
  });

  it("the authorization endpoint refuses an S256 code_challenge that is not the 43 base64url characters of a SHA-256 digest", async () => {
    const hex = createHash("sha256").update(RFC_VERIFIER).digest("hex");
    for (const challenge of [`${RFC_CHALLENGE}=`, hex, RFC_CHALLENGE.slice(1), `${RFC_CHALLENGE.slice(1)}.`]) {
      await assertRefusedAtAuthorize({ code_challenge: challenge, code_challenge_method: "S256" });
    }
  });

  it("the authorization endpoint refuses a code_challenge_method without a code_challenge", async () => {
    await assertRefusedAtAuthorize({ code_challenge_method: "S256" });
    await assertRefusedAtAuthorize({ code_challenge: "", code_challenge_method: "plain" });
  });

  it("the consent POST with a malformed code_challenge issues nothing", async () => {
    const browser = await loggedIn(t);
    const good = await browser.get(authorizeUrl(WEB_CLIENT));
    const { requestTokenOf } = await import("../support/browser-form.js");
    const before = await codeCount();
    const response = await browser.post(authorizeUrl(WEB_CLIENT, { code_challenge: "x", code_challenge_method: "plain" }), {
      requesttoken: requestTokenOf(good.body),
    });
    assert.equal(response.statusCode, 303);
    assert.ok(!String(response.headers.location).startsWith(WEB_CLIENT.redirectUri), String(response.headers.location));
    assert.equal(await codeCount(), before);
  });

  it("an empty code_challenge is no challenge: the client must authenticate with its secret", async () => {
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: "" });
    const secretLess = await publicExchange(t, code, { code_verifier: "" });
    assert.equal(secretLess.statusCode, 401, "no secret and no challenge: the client did not authenticate");
    assert.deepEqual(secretLess.json(), { error: "invalid_client" });
    assert.equal((await exchangeCode(t, code)).statusCode, 200, "with Basic and no verifier, as any code without PKCE");
  });

  it("well-formed challenges are accepted: 43 and 128 characters, plain by default, S256 per RFC 7636 Appendix B", async () => {
    const verifiers = ["a".repeat(43), `${"A1-._~".repeat(21)}zz`];
    for (const verifier of verifiers) {
      const requests: Array<Record<string, string>> = [
        { code_challenge: verifier, code_challenge_method: "plain" },
        { code_challenge: verifier },
      ];
      for (const params of requests) {
        const code = await issueCode(t, WEB_CLIENT, params);
        assert.equal((await publicExchange(t, code, { code_verifier: verifier })).statusCode, 200, verifier);
      }
    }
    const code = await issueCode(t, WEB_CLIENT, S256);
    assert.equal((await publicExchange(t, code, { code_verifier: RFC_VERIFIER })).statusCode, 200);
  });

  it("the implicit flow ignores the PKCE parameters (no code to bind them to)", async () => {
    const browser = await loggedIn(t);
    const location = await consent(
      browser,
      authorizeUrl(WEB_CLIENT, { response_type: "token", code_challenge: "x", code_challenge_method: "S512" }),
    );
    assert.match(location, /#access_token=/);
  });

  it("a code_verifier that is not 43–128 unreserved characters is `code verifier invalid` (RFC 7636 §4.6)", async () => {
    // Each verifier's S256 challenge is well formed, so only the verifier's own form refuses it.
    const latin1Challenge = (verifier: string) => createHash("sha256").update(verifier, "latin1").digest("base64url");
    for (const verifier of ["a".repeat(42), "a".repeat(129), `${"a".repeat(42)} `, `a bé${"a".repeat(40)}`]) {
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: latin1Challenge(verifier), code_challenge_method: "S256" });
      const response = await publicExchange(t, code, { code_verifier: verifier });
      assert.equal(response.statusCode, 400, JSON.stringify(verifier));
      assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "code verifier invalid" });
    }
  });

  it("the S256 hash takes every character whole: verifiers differing only in a character's high byte do not collide", () => {
    assert.equal(s256Challenge(RFC_VERIFIER), RFC_CHALLENGE);
    // U+0141 and "A" (U+0041) share their low byte: a one-byte-per-character hash made them alike.
    assert.notEqual(s256Challenge(`\u0141${"a".repeat(42)}`), s256Challenge(`A${"a".repeat(42)}`));
  });

  it("a verifier colliding under a truncating hash does not redeem the code", async () => {
    const code = await issueCode(t, WEB_CLIENT, {
      code_challenge: s256Challenge(`A${"a".repeat(42)}`),
      code_challenge_method: "S256",
    });
    const forged = await publicExchange(t, code, { code_verifier: `\u0141${"a".repeat(42)}` });
    assert.deepEqual(forged.json(), { error: "invalid_grant", error_description: "code verifier invalid" });
    const genuine = await tokenRequest(
      t,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri, code_verifier: `A${"a".repeat(42)}` },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(genuine.statusCode, 200, genuine.body);
  });
});
