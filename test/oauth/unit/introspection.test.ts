import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OAuthError } from "../../../src/oauth/domain/errors.js";
import { type IntrospectionResponse, introspectToken } from "../../../src/oauth/introspection.js";
import { basicHeader, client, clientStore, FakeGrants, NOW, OTHER, tokenRequest, WEB } from "./fakes.js";

/** RFC 7662 token introspection on in-memory stores: who may learn what about which token. */

const RESOURCE_SERVER = client(4, { resourceServer: true });
const clients = clientStore(WEB, OTHER, RESOURCE_SERVER);
const ISSUER = "https://id.example";

function users(enabled: Record<string, boolean> = { alice: true }) {
  return { find: async (uid: string) => (uid in enabled ? { enabled: enabled[uid] ?? false } : undefined) };
}

function answered(answer: IntrospectionResponse | OAuthError): IntrospectionResponse {
  assert.ok(!(answer instanceof OAuthError), `expected an answer, got ${JSON.stringify(answer)}`);
  return answer;
}

function asClient(caller = WEB) {
  return basicHeader(caller.clientId, caller.secret);
}

describe("token introspection", () => {
  it("a client learns its own live access token's claims, with the issuer the request was addressed to", async () => {
    const grants = new FakeGrants();
    const token = grants.addAccessToken(WEB, { createdAt: NOW - 60, expiresAt: NOW + 3540 });
    const request = { ...tokenRequest({ token }, asClient()), origin: { issuer: ISSUER, baseUrl: ISSUER } };
    assert.deepEqual(await introspectToken(clients, grants.store, users(), NOW, request), {
      active: true,
      scope: "account",
      client_id: WEB.clientId,
      username: "alice",
      aud: WEB.clientId,
      sub: "alice",
      exp: NOW + 3540,
      iat: NOW - 60,
      token_type: "Bearer",
      iss: ISSUER,
    });
  });

  it("another client's token is inactive, exactly like an unknown one", async () => {
    const grants = new FakeGrants();
    const token = grants.addAccessToken(WEB);
    assert.deepEqual(await introspectToken(clients, grants.store, users(), NOW, tokenRequest({ token }, asClient(OTHER))), {
      active: false,
    });
    assert.deepEqual(await introspectToken(clients, grants.store, users(), NOW, tokenRequest({ token: "unknown" }, asClient())), {
      active: false,
    });
  });

  it("a client an administrator marked as resource server learns about any client's token", async () => {
    const grants = new FakeGrants();
    const token = grants.addAccessToken(WEB);
    const answer = answered(
      await introspectToken(clients, grants.store, users(), NOW, tokenRequest({ token }, asClient(RESOURCE_SERVER))),
    );
    assert.equal(answer.active && answer.client_id, WEB.clientId);
  });

  it("an expired access token, a rotated or expired refresh token, and a disabled user's token are inactive", async () => {
    const grants = new FakeGrants();
    const tokens = [
      grants.addAccessToken(WEB, { expiresAt: NOW }),
      grants.addRefreshToken(WEB, { rotated: true }),
      grants.addRefreshToken(WEB, { expiresAt: NOW }),
      grants.addAccessToken(WEB, { uid: "bob" }),
      grants.addAccessToken(WEB, { uid: "gone" }),
    ];
    for (const token of tokens) {
      assert.deepEqual(
        await introspectToken(
          clients,
          grants.store,
          users({ alice: true, bob: false }),
          NOW,
          tokenRequest({ token }, asClient()),
        ),
        { active: false },
        token,
      );
    }
  });

  it("a live refresh token is active with token_type refresh_token", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB);
    const answer = answered(await introspectToken(clients, grants.store, users(), NOW, tokenRequest({ token }, asClient())));
    assert.equal(answer.active && answer.token_type, "refresh_token");
  });

  it("token_type_hint only orders the lookups", async () => {
    const grants = new FakeGrants();
    const token = grants.addAccessToken(WEB);
    const hinted = tokenRequest({ token, token_type_hint: "refresh_token" }, asClient());
    assert.equal(answered(await introspectToken(clients, grants.store, users(), NOW, hinted)).active, true);
    assert.deepEqual(grants.calls, ["findRefreshToken", "findAccessToken"]);
    grants.calls.length = 0;
    await introspectToken(clients, grants.store, users(), NOW, tokenRequest({ token }, asClient()));
    assert.deepEqual(grants.calls, ["findAccessToken"]);
  });

  it("a caller without Basic credentials is invalid_client before any token is looked at; no token is invalid_request", async () => {
    const grants = new FakeGrants();
    const token = grants.addAccessToken(WEB);
    const anonymous = await introspectToken(
      clients,
      grants.store,
      users(),
      NOW,
      tokenRequest({ token, client_id: WEB.clientId }),
    );
    assert.ok(anonymous instanceof OAuthError);
    assert.deepEqual([anonymous.code, anonymous.challenged], ["invalid_client", true]);
    assert.deepEqual(grants.calls, []);
    const missing = await introspectToken(clients, grants.store, users(), NOW, tokenRequest({ token: "" }, asClient()));
    assert.ok(missing instanceof OAuthError);
    assert.equal(missing.code, "invalid_request");
  });
});
