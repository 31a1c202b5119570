import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
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

const OTHER_CLIENT: TestClient = {
  name: "Other App",
  clientId: "otherclientid0123456789abcdefghijklmnopqrst",
  secret: "otherclientsecret0123456789abcdefghijklmnopq",
  redirectUri: "https://other.example.com/cb",
};

const VERIFIER = "a-pkce-verifier-of-sufficient-length-0123456789abcdef";

describe("token endpoint: authorization_code grant (research A.1)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, OTHER_CLIENT);
  });
  after(() => t.close());

  it("exchanges a code for 64-character tokens with user_id, the granted scope and an absolute message_url, not cached", async () => {
    const code = await issueCode(t);
    assert.match(code, /^[A-Za-z0-9]{64}$/);
    const response = await exchangeCode(t, code);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers["cache-control"], "no-store");
    const body = response.json();
    assert.deepEqual(Object.keys(body), [
      "access_token",
      "token_type",
      "expires_in",
      "refresh_token",
      "user_id",
      "scope",
      "message_url",
    ]);
    // RFC 6749 §5.1: the request sent no scope, so the answer names the one granted.
    assert.equal(body.scope, "account");
    assert.match(body.access_token, /^[A-Za-z0-9]{64}$/);
    assert.match(body.refresh_token, /^[A-Za-z0-9]{64}$/);
    assert.equal(body.token_type, "Bearer");
    assert.equal(body.expires_in, 3600);
    assert.equal(body.user_id, "alice");
    assert.equal(body.message_url, "http://localhost:80/index.php/apps/oauth2/authorization-successful");
  });

  it("stores only SHA-256 digests of codes and tokens", async () => {
    const code = await issueCode(t);
    const { db } = t.services.storage;
    assert.ok(
      await db.selectFrom("oauth2_codes").select("code_hash").where("code_hash", "=", sha256Hex(code)).executeTakeFirst(),
    );
    const body = (await exchangeCode(t, code)).json();
    const access = await db
      .selectFrom("oauth2_access_tokens")
      .selectAll()
      .where("token_hash", "=", sha256Hex(body.access_token))
      .execute();
    const refreshRows = await db
      .selectFrom("oauth2_refresh_tokens")
      .selectAll()
      .where("token_hash", "=", sha256Hex(body.refresh_token))
      .execute();
    assert.equal(access.length, 1);
    assert.equal(refreshRows.length, 1);
    const dump = JSON.stringify(await db.selectFrom("oauth2_access_tokens").selectAll().execute());
    assert.ok(!dump.includes(body.access_token));
  });

  it("a code is single use: the second redemption is `authorization code does not exist` and revokes its tokens", async () => {
    // issue 5 (RFC 6749 §4.1.2) changes ownCloud's behaviour: the tokens issued from the code die.
    const code = await issueCode(t);
    const first = await exchangeCode(t, code);
    assert.equal(first.statusCode, 200);
    assert.equal((await userinfo(t, first.json().access_token)).statusCode, 200);
    const second = await exchangeCode(t, code);
    assert.equal(second.statusCode, 400);
    assert.deepEqual(second.json(), { error: "invalid_grant", error_description: "authorization code does not exist" });
    assert.equal((await userinfo(t, first.json().access_token)).statusCode, 401);
    assert.equal((await refresh(t, first.json().refresh_token)).statusCode, 400);
  });

  describe("error table (research A.1.2), each row", () => {
    it("grant_type missing → 400 invalid_request (before client authentication)", async () => {
      const response = await tokenRequest(t, { code: "x" });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_request" });
    });
    it("no client credentials at all → 400 invalid_request", async () => {
      const response = await tokenRequest(t, {
        grant_type: "authorization_code",
        code: "x",
        redirect_uri: WEB_CLIENT.redirectUri,
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_request" });
    });
    it("Basic with an unknown client id → 401 invalid_client with a Basic challenge", async () => {
      const response = await tokenRequest(
        t,
        { grant_type: "authorization_code" },
        { authorization: basic("nobody".repeat(8), WEB_CLIENT.secret) },
      );
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: "invalid_client" });
      assert.match(String(response.headers["www-authenticate"]), /^Basic /);
    });
    it("Basic with a wrong secret → 401 invalid_client", async () => {
      const response = await tokenRequest(
        t,
        { grant_type: "authorization_code" },
        { authorization: basic(WEB_CLIENT.clientId, `${WEB_CLIENT.secret}x`) },
      );
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: "invalid_client" });
    });
    it("client_secret in the body is never read: without Basic it is invalid_request", async () => {
      const response = await tokenRequest(t, {
        grant_type: "authorization_code",
        client_id: WEB_CLIENT.clientId,
        client_secret: WEB_CLIENT.secret,
      });
      assert.deepEqual(response.json(), { error: "invalid_request" });
    });
    it("public path with an unknown client_id → 400 invalid_client without challenge", async () => {
      const response = await tokenRequest(t, { grant_type: "authorization_code", client_id: "unknown", code_verifier: "v" });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_client" });
      assert.equal(response.headers["www-authenticate"], undefined);
    });
    it("an unknown grant type → 400 invalid_grant `unhandled grant type` (after client authentication)", async () => {
      const response = await tokenRequest(
        t,
        { grant_type: "password" },
        { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
      );
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "unhandled grant type" });
    });
    it("code or redirect_uri missing → 400 invalid_request", async () => {
      const auth = { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) };
      const forms: Array<Record<string, string>> = [
        { grant_type: "authorization_code", redirect_uri: WEB_CLIENT.redirectUri },
        { grant_type: "authorization_code", code: "abc" },
      ];
      for (const form of forms) {
        const response = await tokenRequest(t, form, auth);
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), { error: "invalid_request" });
      }
    });
    it("an unknown code → `authorization code does not exist`", async () => {
      const response = await exchangeCode(t, "A".repeat(64));
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "authorization code does not exist" });
    });
    it("a code of another client → `auth grant client ids mismatch`, and the code survives", async () => {
      const code = await issueCode(t);
      const response = await exchangeCode(t, code, { redirect_uri: OTHER_CLIENT.redirectUri }, OTHER_CLIENT);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "auth grant client ids mismatch" });
      assert.equal((await exchangeCode(t, code)).statusCode, 200, "a failed redemption leaves the code in place");
    });
    it("a redirect_uri differing from the registered one → `auth grant redirect uri invalid`", async () => {
      const code = await issueCode(t);
      for (const redirectUri of [
        "https://app.example.com/other",
        "http://app.example.com/callback",
        "https://app.example.com:8443/callback",
        "https://app.example.com/callback?x=1",
      ]) {
        const response = await exchangeCode(t, code, { redirect_uri: redirectUri });
        assert.equal(response.statusCode, 400);
        assert.deepEqual(
          response.json(),
          { error: "invalid_grant", error_description: "auth grant redirect uri invalid" },
          redirectUri,
        );
      }
    });
    it("a wrong PKCE verifier → `code verifier invalid`", async () => {
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
      const response = await exchangeCode(t, code, { code_verifier: "wrong-verifier" });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "code verifier invalid" });
    });
    it("an unsupported stored challenge method → invalid_request `Code challenge method invalid not supported`", async () => {
      // issue 16: the authorization endpoint now refuses such a method, so only a code stored before
      // that check can carry one; the row is written as such a code was.
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: VERIFIER, code_challenge_method: "plain" });
      await t.services.storage.db
        .updateTable("oauth2_codes")
        .set({ code_challenge: "abc", code_challenge_method: "invalid" })
        .where("code_hash", "=", sha256Hex(code))
        .execute();
      const response = await exchangeCode(t, code, { code_verifier: "abc" });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), {
        error: "invalid_request",
        error_description: "Code challenge method invalid not supported",
      });
    });
    it("a disabled user → 400 unauthorized_client `user not enabled`, and the code is spent", async () => {
      accepted(await t.services.users.create({ uid: "bob", password: "bob password bob" }));
      const browserCode = await (async () => {
        const { loggedIn, consent, authorizeUrl } = await import("./support.js");
        const browser = await loggedIn(t, "bob", "bob password bob");
        return new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
      })();
      accepted(await t.services.users.setEnabled("bob", false));
      const response = await exchangeCode(t, browserCode);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "unauthorized_client", error_description: "user not enabled" });
      accepted(await t.services.users.setEnabled("bob", true));
      assert.deepEqual((await exchangeCode(t, browserCode)).json().error_description, "authorization code does not exist");
    });
  });

  describe("PKCE (RFC 7636)", () => {
    it("S256 with the right verifier succeeds", async () => {
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
      assert.equal((await exchangeCode(t, code, { code_verifier: VERIFIER })).statusCode, 200);
    });
    it("plain needs the identical verifier", async () => {
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: VERIFIER, code_challenge_method: "plain" });
      assert.equal(
        (await exchangeCode(t, code, { code_verifier: `${VERIFIER}x` })).json().error_description,
        "code verifier invalid",
      );
      assert.equal((await exchangeCode(t, code, { code_verifier: VERIFIER })).statusCode, 200);
    });
    it("none: no verifier succeeds; a verifier sent for a code without challenge is invalid", async () => {
      const code = await issueCode(t);
      assert.equal((await exchangeCode(t, code, { code_verifier: VERIFIER })).json().error_description, "code verifier invalid");
      assert.equal((await exchangeCode(t, code)).statusCode, 200);
    });
    it("S256 without a verifier (Basic only) is invalid", async () => {
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
      assert.equal((await exchangeCode(t, code)).json().error_description, "code verifier invalid");
    });
    it("public client path: client_id + code_verifier in the body, no secret", async () => {
      const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
      const response = await tokenRequest(t, {
        grant_type: "authorization_code",
        code,
        redirect_uri: WEB_CLIENT.redirectUri,
        client_id: WEB_CLIENT.clientId,
        code_verifier: VERIFIER,
      });
      assert.equal(response.statusCode, 200, response.body);
    });
    it("the public path cannot redeem a code issued without PKCE: a client that sent no secret is 401 invalid_client", async () => {
      const code = await issueCode(t);
      const response = await tokenRequest(t, {
        grant_type: "authorization_code",
        code,
        redirect_uri: WEB_CLIENT.redirectUri,
        client_id: WEB_CLIENT.clientId,
        code_verifier: "",
      });
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: "invalid_client" });
    });
  });

  describe("expiry (injected clock, no sleeping)", () => {
    it("a code is valid for 600 s: at 599 s it works, at 600 s it is `auth grant expired`", async () => {
      const early = await issueCode(t);
      const late = await issueCode(t);
      t.clock.advance(599);
      assert.equal((await exchangeCode(t, early)).statusCode, 200);
      t.clock.advance(1);
      const response = await exchangeCode(t, late);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "auth grant expired" });
    });
    it("an access token works for 3600 s and is rejected from then on", async () => {
      const body = (await exchangeCode(t, await issueCode(t))).json();
      t.clock.advance(3599);
      assert.equal((await userinfo(t, body.access_token)).statusCode, 200);
      t.clock.advance(1);
      const response = await userinfo(t, body.access_token);
      assert.equal(response.statusCode, 401);
      assert.match(String(response.headers["www-authenticate"]), /^Bearer .*error="invalid_token"/);
    });
  });
});

describe("token endpoint: refresh_token grant (rotation, expiry, mirall)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, OTHER_CLIENT);
  });
  after(() => t.close());

  const fresh = async () => (await exchangeCode(t, await issueCode(t))).json() as { access_token: string; refresh_token: string };

  it("rotation: a new pair; the old refresh token and the old access token die", async () => {
    const first = await fresh();
    const response = await refresh(t, first.refresh_token);
    assert.equal(response.statusCode, 200, response.body);
    const second = response.json();
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.user_id, "alice");
    assert.equal((await userinfo(t, first.access_token)).statusCode, 401, "the old access token is dead");
    assert.equal((await userinfo(t, second.access_token)).statusCode, 200);
    const third = await refresh(t, second.refresh_token);
    assert.equal(third.statusCode, 200, "the new refresh token rotates in turn");
    // issue 5 (RFC 9700 §4.14.2): replaying a rotated token answers ownCloud's error and revokes
    // the whole family (test/oauth/token-lifecycle.test.ts covers it in detail).
    const again = await refresh(t, first.refresh_token);
    assert.equal(again.statusCode, 400);
    assert.deepEqual(again.json(), { error: "invalid_grant", error_description: "refresh token does not exist" });
    assert.equal((await userinfo(t, third.json().access_token)).statusCode, 401);
  });

  it("refresh_token missing → invalid_request; unknown → `refresh token does not exist`", async () => {
    const missing = await tokenRequest(
      t,
      { grant_type: "refresh_token" },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json(), { error: "invalid_request" });
    const unknown = await refresh(t, "B".repeat(64));
    assert.deepEqual(unknown.json(), { error: "invalid_grant", error_description: "refresh token does not exist" });
  });

  it("another client's refresh token → `refresh grant client ids mismatch`", async () => {
    const tokens = await fresh();
    const response = await refresh(t, tokens.refresh_token, {}, OTHER_CLIENT);
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: "invalid_grant", error_description: "refresh grant client ids mismatch" });
  });

  it("refresh requires client authentication like the code grant", async () => {
    const tokens = await fresh();
    const response = await tokenRequest(t, { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    assert.deepEqual(response.json(), { error: "invalid_request" });
    const wrong = await tokenRequest(
      t,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { authorization: basic(WEB_CLIENT.clientId, "nope") },
    );
    assert.equal(wrong.statusCode, 401);
  });

  it("a disabled user → 400 unauthorized_client, the tokens are not deleted", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: "carol password!" }));
    const { loggedIn, consent, authorizeUrl } = await import("./support.js");
    const browser = await loggedIn(t, "carol", "carol password!");
    const code = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    const tokens = (await exchangeCode(t, code)).json();
    accepted(await t.services.users.setEnabled("carol", false));
    const refused = await refresh(t, tokens.refresh_token, { "user-agent": "Mozilla/5.0 mirall/2.4.2" });
    assert.equal(refused.statusCode, 400, "the mirall rule does not cover unauthorized_client");
    assert.deepEqual(refused.json(), { error: "unauthorized_client", error_description: "user not enabled" });
    accepted(await t.services.users.setEnabled("carol", true));
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
  });

  it("refresh tokens expire after oauth2.refresh_token_lifetime (90 days default), counted from each rotation", async () => {
    const ninetyDays = 90 * 86_400;
    const first = await fresh();
    t.clock.advance(ninetyDays - 1);
    const rotated = await refresh(t, first.refresh_token);
    assert.equal(rotated.statusCode, 200, "valid until the last second");
    const second = rotated.json();
    t.clock.advance(ninetyDays - 1);
    assert.equal((await refresh(t, second.refresh_token)).statusCode, 200, "the lifetime restarts at rotation");
    const third = await fresh();
    t.clock.advance(ninetyDays);
    const expired = await refresh(t, third.refresh_token);
    assert.equal(expired.statusCode, 400);
    assert.deepEqual(expired.json(), { error: "invalid_grant", error_description: "refresh token expired" });
  });

  it("the lifetime follows the host setting", async () => {
    t.services.settings.set("oauth2.refresh_token_lifetime", 7200);
    try {
      const tokens = await fresh();
      t.clock.advance(7200);
      assert.equal((await refresh(t, tokens.refresh_token)).json().error_description, "refresh token expired");
    } finally {
      t.services.settings.delete("oauth2.refresh_token_lifetime");
    }
  });

  it("mirall 2.4.2: refresh errors answer HTTP 200 with the same body; other agents get 400", async () => {
    const agent = { "user-agent": "Mozilla/5.0 (Windows) mirall/2.4.2 (build 1)" };
    const unknown = await refresh(t, "C".repeat(64), agent);
    assert.equal(unknown.statusCode, 200);
    assert.deepEqual(unknown.json(), { error: "invalid_grant", error_description: "refresh token does not exist" });
    const missing = await tokenRequest(
      t,
      { grant_type: "refresh_token" },
      { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret), ...agent },
    );
    assert.equal(missing.statusCode, 200);
    assert.deepEqual(missing.json(), { error: "invalid_request" });
    const tokens = await fresh();
    const mismatch = await refresh(t, tokens.refresh_token, agent, OTHER_CLIENT);
    assert.equal(mismatch.statusCode, 200);
    assert.equal(mismatch.json().error_description, "refresh grant client ids mismatch");
    const badClient = await tokenRequest(
      t,
      { grant_type: "refresh_token", refresh_token: "x" },
      { authorization: basic(WEB_CLIENT.clientId, "nope"), ...agent },
    );
    assert.equal(badClient.statusCode, 401, "client authentication errors keep their status");
    assert.equal((await refresh(t, "C".repeat(64), { "user-agent": "mirall/2.5.0" })).statusCode, 400);
  });
});

describe("single use under concurrency", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("50 parallel redemptions of one code → exactly one 200", async () => {
    const code = await issueCode(t);
    const responses = await Promise.all(Array.from({ length: 50 }, () => exchangeCode(t, code)));
    const statuses = responses.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 400).length, 49);
    for (const r of responses.filter((r) => r.statusCode === 400)) {
      assert.equal(r.json().error_description, "authorization code does not exist");
    }
    // issue 5: the 49 others are replays of a redeemed code, so the winner's tokens are revoked too.
    const tokens = await t.services.storage.db.selectFrom("oauth2_access_tokens").select("id").execute();
    assert.equal(tokens.length, 0, "the winner's tokens were written, then revoked by the replays");
  });

  it("50 parallel refreshes with one refresh token → exactly one 200 (the rest are reuse: 200-way races in token-lifecycle)", async () => {
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    const responses = await Promise.all(Array.from({ length: 50 }, () => refresh(t, tokens.refresh_token)));
    assert.equal(responses.filter((r) => r.statusCode === 200).length, 1);
    const live = await t.services.storage.db
      .selectFrom("oauth2_refresh_tokens")
      .select("id")
      .where("rotated_at", "is", null)
      .execute();
    assert.equal(live.length, 0, "with no grace window, the losers' reuse revoked the family");
  });
});
