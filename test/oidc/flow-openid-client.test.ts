import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import * as client from "openid-client";
import { authorizeInBrowser, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FetchBrowser } from "../support/fetch-browser.js";
import { isLoggedIn, listeningOidcApp } from "./rp-support.js";
import { POST_LOGOUT } from "./support.js";

/** OIDC Core §3.1.3.6 (openid-client does not check at_hash for the code flow). */
function atHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");
}

describe("OpenID Connect with openid-client: discovery → code + PKCE → ID token → UserInfo → refresh → logout", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    ({ t, base } = await listeningOidcApp());
  });
  after(() => t.close());

  it("openid-client discovers the issuer, validates the ID token (signature, nonce), reads UserInfo, refreshes and logs out", async () => {
    const issuer = new URL(`${base}/index.php/apps/oauth2`);
    const config = await client.discovery(issuer, WEB_CLIENT.clientId, undefined, client.ClientSecretBasic(WEB_CLIENT.secret), {
      execute: [client.allowInsecureRequests],
    });
    // Verify ID token signatures against jwks_uri too (OIDC Core §3.1.3.7 allows skipping it over TLS).
    client.enableNonRepudiationChecks(config);
    assert.equal(config.serverMetadata().issuer, issuer.href);

    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: WEB_CLIENT.redirectUri,
      scope: "openid profile email",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
      state,
    });
    const browser = new FetchBrowser(base);
    const callback = await authorizeInBrowser(browser, authorizationUrl.href);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    assert.ok(claims);
    assert.equal(claims.sub, "alice");
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.at_hash, atHash(tokens.access_token));
    assert.equal(claims.email, "alice@example.com");

    const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.equal(userInfo.sub, claims.sub);
    assert.equal(userInfo.preferred_username, "alice");

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    const refreshedClaims = refreshed.claims();
    assert.ok(refreshedClaims, "OIDC Core 12.2: the refresh answers an ID token");
    assert.equal(refreshedClaims.sub, claims.sub);
    assert.equal(refreshedClaims.auth_time, claims.auth_time);
    assert.equal(refreshedClaims.at_hash, atHash(refreshed.access_token));

    const logoutUrl = client.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token as string,
      post_logout_redirect_uri: POST_LOGOUT,
      state: "after-logout",
    });
    assert.equal(await isLoggedIn(browser), true);
    const logout = await browser.request(logoutUrl.href);
    assert.equal(logout.status, 303);
    assert.equal(logout.headers.get("location"), `${POST_LOGOUT}?state=after-logout`);
    assert.equal(await isLoggedIn(browser), false);
  });
});
