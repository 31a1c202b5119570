import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as client from "openid-client";
import { authorizeInBrowser, authorizeUrl, loggedIn, WEB_CLIENT } from "../oauth/support.js";
import { listeningOidcApp } from "../oidc/rp-support.js";
import type { TestApp } from "../support/app.js";
import { FetchBrowser } from "../support/fetch-browser.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

/** OpenID Connect: the scope `groups` adds the claim `groups`, the ids of the user's groups. */
describe(`the groups claim (openid-client, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  let base: string;
  let config: client.Configuration;

  before(async () => {
    ({ t, base } = await listeningOidcApp());
    accepted(await t.services.groups.create("editors"));
    accepted(await t.services.groups.create("wiki"));
    accepted(await t.services.groups.addMember("wiki", "alice"));
    accepted(await t.services.groups.addMember("editors", "alice"));
    config = await client.discovery(
      new URL(`${base}/index.php/apps/oauth2`),
      WEB_CLIENT.clientId,
      undefined,
      client.ClientSecretBasic(WEB_CLIENT.secret),
      { execute: [client.allowInsecureRequests] },
    );
  });
  after(() => t.close());

  async function signIn(scope: string) {
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: WEB_CLIENT.redirectUri, scope, nonce });
    const callback = await authorizeInBrowser(new FetchBrowser(base), url.href);
    return client.authorizationCodeGrant(config, callback, { expectedNonce: nonce, idTokenExpected: true });
  }

  it("discovery advertises the scope groups and the claim groups", () => {
    const metadata = config.serverMetadata();
    assert.ok(metadata.scopes_supported?.includes("groups"));
    assert.ok(metadata.claims_supported?.includes("groups"));
  });

  it("with scope groups the ID token and UserInfo carry groups, the ids of the user's groups", async () => {
    const tokens = await signIn("openid groups");
    assert.deepEqual(tokens.claims()?.groups, ["editors", "wiki"]);
    const userInfo = await client.fetchUserInfo(config, tokens.access_token, "alice");
    assert.deepEqual(userInfo.groups, ["editors", "wiki"]);
    // Read at each answer: a membership ended shows in the next UserInfo.
    accepted(await t.services.groups.removeMember("wiki", "alice"));
    assert.deepEqual((await client.fetchUserInfo(config, tokens.access_token, "alice")).groups, ["editors"]);
    accepted(await t.services.groups.addMember("wiki", "alice"));
  });

  it("without scope groups neither carries the claim", async () => {
    const tokens = await signIn("openid profile");
    assert.equal(tokens.claims()?.groups, undefined);
    assert.equal((await client.fetchUserInfo(config, tokens.access_token, "alice")).groups, undefined);
  });

  it("a user in no group gets an empty array", async () => {
    accepted(await t.services.groups.removeMember("wiki", "alice"));
    accepted(await t.services.groups.removeMember("editors", "alice"));
    const tokens = await signIn("openid groups");
    assert.deepEqual(tokens.claims()?.groups, []);
  });

  it("the consent page names the scope groups", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get(authorizeUrl(WEB_CLIENT, { scope: "openid groups", nonce: "n" }));
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /the names of your groups/);
  });
});
