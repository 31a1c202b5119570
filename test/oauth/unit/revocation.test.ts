import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OAuthError } from "../../../src/oauth/domain/errors.js";
import { revokeToken } from "../../../src/oauth/revocation.js";
import { basicHeader, clientStore, eventLog, FakeGrants, OTHER, tokenRequest, WEB } from "./fakes.js";

/** RFC 7009 token revocation on in-memory stores: what a revocation takes with it, and what it may not touch. */

const clients = clientStore(WEB, OTHER);

function asClient(caller = WEB) {
  return basicHeader(caller.clientId, caller.secret);
}

describe("token revocation", () => {
  it("revoking an access token deletes that token only; its grant lives on", async () => {
    const grants = new FakeGrants();
    const token = grants.addAccessToken(WEB);
    const id = grants.accessTokens.values().next().value?.id;
    assert.equal(await revokeToken(clients, grants.store, eventLog(), tokenRequest({ token }, asClient())), undefined);
    assert.deepEqual(grants.revokedAccessTokens, [id]);
    assert.deepEqual(grants.revokedGrants, []);
  });

  it("revoking a refresh token, live or rotated, revokes its whole grant", async () => {
    for (const rotated of [false, true]) {
      const grants = new FakeGrants();
      const token = grants.addRefreshToken(WEB, { grantId: 21, rotated });
      assert.equal(await revokeToken(clients, grants.store, eventLog(), tokenRequest({ token }, asClient())), undefined);
      assert.deepEqual(grants.revokedGrants, [21]);
    }
  });

  it("a token of another client is refused and nothing is revoked", async () => {
    const grants = new FakeGrants();
    const access = grants.addAccessToken(WEB);
    const refresh = grants.addRefreshToken(WEB);
    for (const token of [access, refresh]) {
      const error = await revokeToken(clients, grants.store, eventLog(), tokenRequest({ token }, asClient(OTHER)));
      assert.ok(error instanceof OAuthError);
      assert.deepEqual(error.toJSON(), {
        error: "invalid_request",
        error_description: "the token was not issued to this client",
      });
    }
    assert.deepEqual([grants.revokedAccessTokens, grants.revokedGrants], [[], []]);
  });

  it("an unknown token is answered like a revoked one (no error), so existence cannot be probed", async () => {
    const grants = new FakeGrants();
    assert.equal(await revokeToken(clients, grants.store, eventLog(), tokenRequest({ token: "unknown" }, asClient())), undefined);
    assert.deepEqual(grants.calls, ["findAccessToken", "findRefreshToken"]);
  });

  it("a public client (client_id alone) may revoke what it obtained via PKCE, not a grant a secret obtained", async () => {
    const grants = new FakeGrants();
    const confidential = grants.addRefreshToken(WEB, { grantId: 1, publicClient: false });
    const viaPkce = grants.addRefreshToken(WEB, { grantId: 2, publicClient: true });
    const asPublic = (token: string) => tokenRequest({ token, client_id: WEB.clientId });
    const error = await revokeToken(clients, grants.store, eventLog(), asPublic(confidential));
    assert.ok(error instanceof OAuthError);
    assert.equal(error.code, "invalid_client");
    assert.equal(await revokeToken(clients, grants.store, eventLog(), asPublic(viaPkce)), undefined);
    assert.deepEqual(grants.revokedGrants, [2]);
  });

  it("token_type_hint=refresh_token looks the refresh token up first", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB);
    await revokeToken(clients, grants.store, eventLog(), tokenRequest({ token, token_type_hint: "refresh_token" }, asClient()));
    assert.deepEqual(grants.calls, ["findRefreshToken", "revokeGrant"]);
  });

  it("a request without a token, or from an unauthenticated client, is refused before anything is looked up", async () => {
    const grants = new FakeGrants();
    const missing = await revokeToken(clients, grants.store, eventLog(), tokenRequest({}, asClient()));
    assert.equal(missing?.code, "invalid_request");
    const wrong = await revokeToken(
      clients,
      grants.store,
      eventLog(),
      tokenRequest({ token: "t" }, basicHeader(WEB.clientId, "x")),
    );
    assert.equal(wrong?.code, "invalid_client");
    assert.deepEqual(grants.calls, []);
  });
});
