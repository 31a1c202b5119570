import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256Hex } from "../../../src/crypto/secrets.js";
import { handle } from "../../../src/oauth/grants/refresh-token.js";
import { FakeGrants, grantDeps, grantInput, issued, NOW, OTHER, REFRESH_LIFETIME, refused, WEB } from "./fakes.js";

/**
 * The refresh_token grant (RFC 6749 §6) with rotation and reuse detection (RFC 9700 §4.14.2) on an
 * in-memory grant store.
 */

const MIRALL_2_4_2 = "Mozilla/5.0 (Linux) mirall/2.4.2 (build 10163) (ownCloud)";

describe("the refresh_token grant", () => {
  it("a live refresh token rotates: a new pair under the same grant, the presented token marked rotated", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB);
    const response = issued(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: token })));
    assert.notEqual(response.refresh_token, token);
    assert.equal(response.user_id, "alice");
    assert.equal(grants.refreshTokens.get(sha256Hex(token))?.rotated, true);
    assert.equal(grants.issued.length, 1);
    assert.deepEqual(grants.issued[0]?.refresh, {
      tokenHash: sha256Hex(response.refresh_token),
      expiresAt: NOW + REFRESH_LIFETIME,
    });
    assert.deepEqual(grants.revokedGrants, []);
    assert.equal(grants.gracePairs.size, 0, "no grace window, no sealed pair kept");
  });

  it("a refresh token presented by another client is refused and revokes nothing", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB);
    const error = refused(await handle(grantDeps(grants), grantInput(OTHER, { refresh_token: token })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "refresh grant client ids mismatch" });
    assert.equal(grants.refreshTokens.get(sha256Hex(token))?.rotated, false);
    assert.deepEqual(grants.revokedGrants, []);
  });

  it("a public client may not refresh, with client_id alone, what a client secret obtained", async () => {
    const grants = new FakeGrants();
    const confidential = grants.addRefreshToken(WEB, { publicClient: false });
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: confidential }, { method: "none" })));
    assert.equal(error.code, "invalid_client");
    assert.deepEqual(grants.issued, []);
    const viaPkce = grants.addRefreshToken(WEB, { publicClient: true });
    issued(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: viaPkce }, { method: "none" })));
  });

  it("a rotated refresh token presented again revokes its whole grant and reads as not existing", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB, { grantId: 33 });
    const deps = grantDeps(grants);
    issued(await handle(deps, grantInput(WEB, { refresh_token: token })));
    const error = refused(await handle(deps, grantInput(WEB, { refresh_token: token })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "refresh token does not exist" });
    assert.deepEqual(grants.revokedGrants, [33]);
    assert.ok(deps.log.events.some((e) => e.level === "warn" && e.fields.event === "oauth2_refresh_reused"));
  });

  it("within the grace window a rotated refresh token gets the same pair again and revokes nothing", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB);
    const deps = grantDeps(grants, { refreshReuseGrace: 30 });
    const first = issued(await handle(deps, grantInput(WEB, { refresh_token: token })));
    const retried = issued(await handle(deps, grantInput(WEB, { refresh_token: token })));
    assert.deepEqual(retried, first);
    assert.deepEqual(grants.revokedGrants, []);
    assert.equal(grants.issued.length, 1, "the retry issues nothing new");
  });

  it("after the grace window a rotated refresh token is reuse: its grant is revoked", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB, { grantId: 12 });
    issued(await handle(grantDeps(grants, { refreshReuseGrace: 30 }), grantInput(WEB, { refresh_token: token })));
    const later = grantDeps(grants, { refreshReuseGrace: 30, now: NOW + 30 });
    refused(await handle(later, grantInput(WEB, { refresh_token: token })));
    assert.deepEqual(grants.revokedGrants, [12]);
  });

  it("a refresh token at its expiry instant is refused and not rotated", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB, { expiresAt: NOW });
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: token })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "refresh token expired" });
    assert.equal(grants.refreshTokens.get(sha256Hex(token))?.rotated, false);
  });

  it("a disabled user's refresh token is refused as unauthorized_client and not rotated", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB, { userEnabled: false });
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: token })));
    assert.deepEqual(error.toJSON(), { error: "unauthorized_client", error_description: "user not enabled" });
    assert.deepEqual(grants.issued, []);
  });

  it("an unknown refresh token is refused as a guess (the throttle counts it)", async () => {
    const grants = new FakeGrants();
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: "nope" })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "refresh token does not exist" });
    assert.equal(error.guess, true);
  });

  it("a rotation that loses the compare-and-set to a concurrent refresh is reuse: the grant is revoked", async () => {
    const grants = new FakeGrants();
    const token = grants.addRefreshToken(WEB, { grantId: 5 });
    grants.winNextCompareAndSet = false;
    refused(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: token })));
    assert.deepEqual(grants.revokedGrants, [5]);
  });

  it("ownCloud desktop 2.4.2 gets its refresh errors with HTTP 200 (soft), other clients do not", async () => {
    const grants = new FakeGrants();
    const legacy = refused(
      await handle(grantDeps(grants), grantInput(WEB, { refresh_token: "nope" }, { userAgent: MIRALL_2_4_2 })),
    );
    assert.equal(legacy.softFail, true);
    const missing = refused(await handle(grantDeps(grants), grantInput(WEB, {}, { userAgent: MIRALL_2_4_2 })));
    assert.deepEqual([missing.code, missing.softFail], ["invalid_request", true]);
    const other = refused(await handle(grantDeps(grants), grantInput(WEB, { refresh_token: "nope" }, { userAgent: "curl/8" })));
    assert.equal(other.softFail, false);
  });
});
