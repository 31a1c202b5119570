import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as client from "openid-client";
import type { TestApp } from "../support/app.js";
import { FetchBrowser } from "../support/fetch-browser.js";
import { authorizeInBrowser, createOAuthTestApp, WEB_CLIENT } from "./support.js";

describe("full flow driven by openid-client (a library nobody on the team wrote)", () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createOAuthTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === "object");
    base = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  const serverMetadata = () => ({
    issuer: `${base}/index.php/apps/oauth2`,
    authorization_endpoint: `${base}/index.php/apps/oauth2/authorize`,
    token_endpoint: `${base}/index.php/apps/oauth2/api/v1/token`,
    userinfo_endpoint: `${base}/index.php/apps/oauth2/api/v1/userinfo`,
  });

  // research A.1.2: the public path is `client_id` + `code_verifier` in the body, on refresh too
  // (ownCloud's rule), so the public client repeats its verifier when it refreshes.
  for (const [title, auth, publicPath] of [
    ["confidential client (client_secret_basic)", () => client.ClientSecretBasic(WEB_CLIENT.secret), false],
    ["public client (PKCE only, no secret)", () => client.None(), true],
  ] as const) {
    it(`${title}: login → consent → code with PKCE S256 → tokens → userinfo → refresh → old refresh token rejected`, async () => {
      const config = new client.Configuration(serverMetadata(), WEB_CLIENT.clientId, undefined, auth());
      client.allowInsecureRequests(config);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const authorizationUrl = client.buildAuthorizationUrl(config, {
        response_type: "code",
        redirect_uri: WEB_CLIENT.redirectUri,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
      });

      const callback = await authorizeInBrowser(new FetchBrowser(base), authorizationUrl.href, {
        loginPageShows: /The application "Web App" is requesting access to your account/,
      });
      assert.equal(`${callback.origin}${callback.pathname}`, WEB_CLIENT.redirectUri);

      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
      assert.equal(tokens.token_type, "bearer");
      assert.equal(tokens.expires_in, 3600);
      assert.ok(tokens.refresh_token);
      assert.equal(tokens.user_id, "alice");
      assert.equal(tokens.message_url, `${base}/index.php/apps/oauth2/authorization-successful`);

      const claims = await client.fetchUserInfo(config, tokens.access_token, "alice");
      assert.deepEqual(claims, { sub: "alice", name: "Alice Liddell", email: "alice@example.com" });

      const refreshParameters = publicPath ? { code_verifier: verifier } : undefined;
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string, refreshParameters);
      assert.notEqual(refreshed.access_token, tokens.access_token);
      assert.equal((await client.fetchUserInfo(config, refreshed.access_token, "alice")).sub, "alice");

      await assert.rejects(
        () => client.refreshTokenGrant(config, tokens.refresh_token as string, refreshParameters),
        (error: unknown) => error instanceof client.ResponseBodyError && error.error === "invalid_grant" && error.status === 400,
      );
      await assert.rejects(
        () => client.fetchUserInfo(config, tokens.access_token, "alice"),
        "the rotated-out access token is dead",
      );
    });
  }
});
