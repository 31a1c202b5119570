import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256Hex } from "../../../src/crypto/secrets.js";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "../../../src/oauth/domain/lifetimes.js";
import { s256Challenge } from "../../../src/oauth/domain/pkce.js";
import { handle } from "../../../src/oauth/grants/authorization-code.js";
import type { IdTokenMinter } from "../../../src/oauth/ports.js";
import { FakeGrants, grantDeps, grantInput, issued, NOW, OTHER, REDIRECT_URI, REFRESH_LIFETIME, refused, WEB } from "./fakes.js";

/**
 * The authorization_code grant (RFC 6749 §4.1.3, PKCE RFC 7636, replay RFC 9700 §4.5) on an
 * in-memory grant store: what a redemption must prove, and what a replay may revoke.
 */

const VERIFIER = "v".repeat(43);

describe("the authorization_code grant", () => {
  it("a valid code is redeemed once: a Bearer pair for the code's user, stored as hashes, the code consumed", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const response = issued(await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    assert.equal(response.token_type, "Bearer");
    assert.equal(response.expires_in, ACCESS_TOKEN_LIFETIME_SECONDS);
    assert.equal(response.user_id, "alice");
    assert.match(response.access_token, /^[A-Za-z0-9]{64}$/);
    assert.match(response.refresh_token, /^[A-Za-z0-9]{64}$/);
    assert.deepEqual(grants.issued, [
      {
        accessTokenHash: sha256Hex(response.access_token),
        accessExpiresAt: NOW + ACCESS_TOKEN_LIFETIME_SECONDS,
        refresh: { tokenHash: sha256Hex(response.refresh_token), expiresAt: NOW + REFRESH_LIFETIME },
      },
    ]);
    assert.equal(grants.codes.get(sha256Hex(code))?.consumed, true);
    assert.deepEqual(grants.revokedGrants, []);
  });

  it("a code presented again by its client after redemption revokes its grant and is answered as not existing", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { grantId: 41 });
    const deps = grantDeps(grants);
    issued(await handle(deps, grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    const replay = refused(await handle(deps, grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    assert.deepEqual(replay.toJSON(), { error: "invalid_grant", error_description: "authorization code does not exist" });
    assert.equal(replay.guess, false, "a replay is not a guess: the throttle does not count it");
    assert.deepEqual(grants.revokedGrants, [41]);
    assert.ok(deps.log.events.some((e) => e.level === "warn" && e.fields.event === "oauth2_code_replayed"));
  });

  it("a code presented by another client is refused and revokes nothing", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const error = refused(await handle(grantDeps(grants), grantInput(OTHER, { code, redirect_uri: REDIRECT_URI })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "auth grant client ids mismatch" });
    assert.equal(grants.codes.get(sha256Hex(code))?.consumed, false, "the code stays for its own client");
    assert.deepEqual(grants.revokedGrants, []);
    assert.deepEqual(grants.issued, []);
  });

  it("a used code presented by another client revokes nothing and reads as not existing", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { consumed: true });
    const deps = grantDeps(grants);
    const error = refused(await handle(deps, grantInput(OTHER, { code, redirect_uri: REDIRECT_URI })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "authorization code does not exist" });
    assert.deepEqual(grants.revokedGrants, []);
    assert.ok(deps.log.events.some((e) => e.fields.event === "oauth2_code_replay_unproven"));
  });

  it("a used code presented by its client without the PKCE verifier its redemption needed revokes nothing", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { consumed: true, challenge: s256Challenge(VERIFIER), challengeMethod: "S256" });
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    assert.equal(error.description, "authorization code does not exist");
    assert.deepEqual(grants.revokedGrants, []);
  });

  it("an unknown code is refused as a guess (the throttle counts it), and nothing is written", async () => {
    const grants = new FakeGrants();
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { code: "nope", redirect_uri: REDIRECT_URI })));
    assert.deepEqual(error.toJSON(), { error: "invalid_grant", error_description: "authorization code does not exist" });
    assert.equal(error.guess, true);
    assert.deepEqual(grants.calls, ["findCode"]);
  });

  it("a request without code or redirect_uri is invalid_request and reads nothing", async () => {
    const grants = new FakeGrants();
    for (const params of [{ redirect_uri: REDIRECT_URI }, { code: "c" }]) {
      assert.deepEqual(refused(await handle(grantDeps(grants), grantInput(WEB, params))).toJSON(), { error: "invalid_request" });
    }
    assert.deepEqual(grants.calls, []);
  });

  it("a code at its expiry instant is expired and is not redeemed", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { expiresAt: NOW });
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    assert.equal(error.description, "auth grant expired");
    assert.deepEqual(grants.issued, []);
  });

  it("the redirect_uri must be the authorization request's, and a code with none stored is refused", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const other = refused(await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: `${REDIRECT_URI}/x` })));
    assert.equal(other.description, "auth grant redirect uri invalid");
    const legacy = grants.addCode(WEB, { redirectUri: null });
    const none = refused(await handle(grantDeps(grants), grantInput(WEB, { code: legacy, redirect_uri: REDIRECT_URI })));
    assert.equal(none.description, "auth grant redirect uri invalid");
    assert.deepEqual(grants.issued, []);
  });

  it("an S256 code is redeemed with its verifier and refused with another one", async () => {
    const grants = new FakeGrants();
    const pkce = { challenge: s256Challenge(VERIFIER), challengeMethod: "S256" };
    const wrong = refused(
      await handle(
        grantDeps(grants),
        grantInput(WEB, { code: grants.addCode(WEB, pkce), redirect_uri: REDIRECT_URI, code_verifier: "w".repeat(43) }),
      ),
    );
    assert.deepEqual(wrong.toJSON(), { error: "invalid_grant", error_description: "code verifier invalid" });
    issued(
      await handle(
        grantDeps(grants),
        grantInput(WEB, { code: grants.addCode(WEB, pkce), redirect_uri: REDIRECT_URI, code_verifier: VERIFIER }),
      ),
    );
  });

  it("a public client (client_id alone) cannot redeem a code issued without a PKCE challenge: the client failed to authenticate (401)", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB);
    const error = refused(
      await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI }, { method: "none" })),
    );
    assert.deepEqual(error.toJSON(), { error: "invalid_client" });
    assert.equal(error.challenged, true);
    assert.deepEqual(grants.issued, []);
  });

  it("a stored challenge method other than S256 or plain is invalid_request", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { challenge: VERIFIER, challengeMethod: "S512" });
    const error = refused(
      await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER })),
    );
    assert.deepEqual(error.toJSON(), { error: "invalid_request", error_description: "Code challenge method S512 not supported" });
  });

  it("a disabled user's code is spent without tokens and refused as unauthorized_client", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { userEnabled: false });
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    assert.deepEqual(error.toJSON(), { error: "unauthorized_client", error_description: "user not enabled" });
    assert.equal(grants.codes.get(sha256Hex(code))?.consumed, true);
    assert.deepEqual(grants.issued, []);
  });

  it("a redemption that loses the compare-and-set to a concurrent one is a replay: the grant is revoked", async () => {
    const grants = new FakeGrants();
    const code = grants.addCode(WEB, { grantId: 9 });
    grants.winNextCompareAndSet = false;
    const error = refused(await handle(grantDeps(grants), grantInput(WEB, { code, redirect_uri: REDIRECT_URI })));
    assert.equal(error.description, "authorization code does not exist");
    assert.deepEqual(grants.revokedGrants, [9]);
  });

  it("an openid grant's exchange carries the ID token the minter signs, with the nonce; without an origin, none", async () => {
    const grants = new FakeGrants();
    const asked: Parameters<IdTokenMinter["mint"]>[0][] = [];
    const idTokens: IdTokenMinter = {
      mint: async (input) => {
        asked.push(input);
        return "signed.id.token";
      },
    };
    const identity = { scope: "openid profile", authTime: NOW - 10, nonce: "n-1" };
    const origin = { issuer: "https://id.example", baseUrl: "https://id.example" };
    const deps = grantDeps(grants, { idTokens });
    const withOrigin = issued(
      await handle(deps, grantInput(WEB, { code: grants.addCode(WEB, identity), redirect_uri: REDIRECT_URI }, { origin })),
    );
    assert.equal(withOrigin.id_token, "signed.id.token");
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.withNonce, true);
    assert.equal(asked[0]?.accessToken, withOrigin.access_token);
    assert.deepEqual(asked[0]?.identity, { ...asked[0]?.identity, ...identity });
    const withoutOrigin = issued(
      await handle(deps, grantInput(WEB, { code: grants.addCode(WEB, identity), redirect_uri: REDIRECT_URI })),
    );
    assert.equal(withoutOrigin.id_token, undefined);
    assert.equal(asked.length, 1);
  });
});
