import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { decodeJwt } from "jose";
import { exchangeCode, issueCode, loggedIn, PNG, refresh, userinfo, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOidcTestApp, ISSUER, openIdTokens, verifyIdToken } from "./support.js";

/** OIDC Core §3.1.3.6, computed here from the spec's words (left half of SHA-256, base64url). */
function expectedAtHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");
}

describe(`ID tokens (OIDC Core §2, §3.1.3, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  it("OIDC Core 3.1.3.3: a code request with scope openid answers an RS256 id_token with iss, sub, aud, exp, iat, auth_time, nonce and at_hash", async () => {
    const browser = await loggedIn(t);
    const loginTime = t.clock.nowSeconds();
    t.clock.advance(30);
    const tokens = await openIdTokens(t, browser, { nonce: "abc-123" });
    const claims = await verifyIdToken(t, tokens.id_token);
    assert.equal(claims.iss, ISSUER);
    assert.equal(claims.sub, "alice");
    assert.equal(claims.aud, WEB_CLIENT.clientId);
    assert.equal(claims.iat, t.clock.nowSeconds());
    assert.equal(claims.exp, t.clock.nowSeconds() + 3600);
    assert.equal(claims.auth_time, loginTime, "auth_time is when alice logged in, not when the code was issued");
    assert.equal(claims.nonce, "abc-123");
    assert.equal(claims.at_hash, expectedAtHash(tokens.access_token));
    assert.equal(claims.azp, undefined, "one audience, the authorized party itself");
  });

  it("OIDC Core 3.1.2.1: without a nonce in the request the ID token carries none", async () => {
    const tokens = await openIdTokens(t, await loggedIn(t), { nonce: "" });
    const claims = await verifyIdToken(t, tokens.id_token);
    assert.equal(claims.nonce, "", "an empty nonce is echoed as sent");
    const without = await exchangeCode(t, await issueCode(t, WEB_CLIENT, { scope: "openid" }));
    assert.equal((await verifyIdToken(t, without.json().id_token)).nonce, undefined);
  });

  it("OIDC Core 5.4: profile adds name, preferred_username and picture; email adds email and email_verified; openid alone only sub", async () => {
    accepted(await t.services.avatars.set("alice", PNG));
    const full = await verifyIdToken(t, (await openIdTokens(t, await loggedIn(t))).id_token);
    assert.equal(full.name, "Alice Liddell");
    assert.equal(full.preferred_username, "alice");
    assert.equal(full.picture, "http://localhost:80/remote.php/dav/avatars/alice/96.png");
    assert.equal(full.email, "alice@example.com");
    assert.equal(full.email_verified, false);
    const bare = await verifyIdToken(t, (await openIdTokens(t, await loggedIn(t), { scope: "openid" })).id_token);
    for (const claim of ["name", "preferred_username", "picture", "email", "email_verified"]) {
      assert.equal(bare[claim], undefined, claim);
    }
    await t.services.avatars.remove("alice");
  });

  it("email_verified is true in the ID token and UserInfo only for an address an administrator marked verified, and false again once it changes", async () => {
    const claimsNow = async () => {
      const tokens = await openIdTokens(t, await loggedIn(t), { scope: "openid email" });
      const idToken = await verifyIdToken(t, tokens.id_token);
      const info = (await userinfo(t, tokens.access_token)).json();
      return { idToken: [idToken.email, idToken.email_verified], userInfo: [info.email, info.email_verified] };
    };
    try {
      accepted(await t.services.users.updateProfile("alice", { email: "alice@example.com", emailVerified: true }));
      assert.deepEqual(await claimsNow(), {
        idToken: ["alice@example.com", true],
        userInfo: ["alice@example.com", true],
      });
      accepted(await t.services.users.updateProfile("alice", { email: "alice@example.org" }));
      assert.deepEqual(await claimsNow(), {
        idToken: ["alice@example.org", false],
        userInfo: ["alice@example.org", false],
      });
    } finally {
      accepted(await t.services.users.updateProfile("alice", { email: "alice@example.com", emailVerified: false }));
    }
  });

  it("a code request without openid gets ownCloud's token response (with its scope), no id_token", async () => {
    const response = await exchangeCode(t, await issueCode(t, WEB_CLIENT, { scope: "profile email" }));
    assert.equal(response.statusCode, 200);
    assert.deepEqual(Object.keys(response.json()), [
      "access_token",
      "token_type",
      "expires_in",
      "refresh_token",
      "user_id",
      "scope",
      "message_url",
    ]);
    assert.equal(response.json().scope, "profile email");
  });

  it("OIDC Core 12.2: a refresh of an openid grant answers a new ID token: same iss, sub, aud and auth_time, new iat, at_hash of the new access token, no nonce", async () => {
    const tokens = await openIdTokens(t, await loggedIn(t));
    const first = await verifyIdToken(t, tokens.id_token);
    t.clock.advance(600);
    const response = await refresh(t, tokens.refresh_token);
    assert.equal(response.statusCode, 200, response.body);
    const refreshed = response.json();
    const claims = await verifyIdToken(t, refreshed.id_token);
    assert.equal(claims.iss, first.iss);
    assert.equal(claims.sub, first.sub);
    assert.equal(claims.aud, first.aud);
    assert.equal(claims.auth_time, first.auth_time);
    assert.equal(claims.iat, (first.iat as number) + 600);
    assert.equal(claims.at_hash, expectedAtHash(refreshed.access_token));
    assert.equal(claims.nonce, undefined);
  });

  it("a refresh of a grant without openid gets no id_token", async () => {
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    const response = await refresh(t, tokens.refresh_token);
    assert.equal(response.json().id_token, undefined);
  });

  it("OIDC Core 5.3.2: UserInfo answers an openid token the claims of its scope, with the ID token's sub", async () => {
    const tokens = await openIdTokens(t, await loggedIn(t), { scope: "openid email" });
    const sub = decodeJwt(tokens.id_token as string).sub;
    const response = await userinfo(t, tokens.access_token);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { sub, email: "alice@example.com", email_verified: false });
    const profile = await openIdTokens(t, await loggedIn(t), { scope: "openid profile" });
    assert.deepEqual((await userinfo(t, profile.access_token)).json(), {
      sub: "alice",
      name: "Alice Liddell",
      preferred_username: "alice",
    });
  });

  it("UserInfo keeps ownCloud's claims for a token issued without a scope (the account scope)", async () => {
    const tokens = (await exchangeCode(t, await issueCode(t, WEB_CLIENT))).json();
    assert.deepEqual((await userinfo(t, tokens.access_token)).json(), {
      sub: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
    });
  });
});
