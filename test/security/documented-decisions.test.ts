import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { REVOCATION_PATH } from "../../src/http/oauth-paths.js";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import { basicAuthFor, fileEvent, get, publish } from "../activity/support.js";
import { createOAuthTestApp, exchangeCode, issueCode, refresh, tokenRequest, userinfo, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";

/**
 * Behaviour the November 2026 security review reported as informational (#13–#15) and that
 * Keystream keeps on purpose (docs/security.md "Kept on purpose"). Each test pins the decided
 * rule, so a change to it is a visible decision, not an accident.
 */

const VERIFIER = "documented-decision-verifier-0123456789abcdefghijklmnop";

function form(t: TestApp, url: string, body: Record<string, string>) {
  return t.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(body).toString(),
  });
}

describe("kept on purpose: OAuth (review #13, #14)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("review #13: a confidential client's code issued with a PKCE challenge redeems with the verifier and no secret, and only that grant is public", async () => {
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
    const redeemed = await tokenRequest(t, {
      grant_type: "authorization_code",
      code,
      redirect_uri: WEB_CLIENT.redirectUri,
      client_id: WEB_CLIENT.clientId,
      code_verifier: VERIFIER,
    });
    assert.equal(redeemed.statusCode, 200, redeemed.body);
    // The same client's code issued without a challenge still needs the secret.
    const withoutPkce = await issueCode(t);
    const refused = await tokenRequest(t, {
      grant_type: "authorization_code",
      code: withoutPkce,
      redirect_uri: WEB_CLIENT.redirectUri,
      client_id: WEB_CLIENT.clientId,
    });
    // No secret and no challenge: the client did not authenticate (RFC 6749 §5.2 invalid_client).
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().error, "invalid_client");
    const confidential = (await exchangeCode(t, withoutPkce)).json() as { refresh_token: string };
    // The PKCE grant is public from then on (refreshes with client_id alone); the other is not.
    const publicRefresh = (refreshToken: string) =>
      tokenRequest(t, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: WEB_CLIENT.clientId });
    assert.equal((await publicRefresh(redeemed.json().refresh_token)).statusCode, 200);
    assert.equal((await publicRefresh(confidential.refresh_token)).json().error, "invalid_client");
  });

  it("review #14: the access token of a confidential client is revocable with client_id alone; its grant survives and refreshes with the secret", async () => {
    const pair = (await exchangeCode(t, await issueCode(t))).json() as { access_token: string; refresh_token: string };
    const revoked = await form(t, REVOCATION_PATH, { token: pair.access_token, client_id: WEB_CLIENT.clientId });
    assert.equal(revoked.statusCode, 200);
    assert.equal((await userinfo(t, pair.access_token)).statusCode, 401, "the access token is gone");
    // The refresh token of the same grant is not: it needs the secret (to revoke or to refresh).
    const refreshRevoke = await form(t, REVOCATION_PATH, { token: pair.refresh_token, client_id: WEB_CLIENT.clientId });
    assert.equal(refreshRevoke.json().error, "invalid_client");
    const renewed = await refresh(t, pair.refresh_token);
    assert.equal(renewed.statusCode, 200, "the client recovers with its secret");
    assert.equal((await userinfo(t, renewed.json().access_token)).statusCode, 200);
  });
});

describe("kept on purpose: activity `since` (review #15)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());

  it("review #15: since = another user's activity id → 403, an unknown id → 200 from the top (upstream's answer, an ownership oracle)", async () => {
    const alice = await basicAuthFor(t, "alice");
    const [own] = await publish(t, fileEvent("alice"));
    const [foreign] = await publish(t, fileEvent("bob"));
    const api = "/ocs/v2.php/apps/activity/api/v2/activity";
    const other = await get(t, `${api}?since=${foreign}&format=json`, alice);
    assert.equal(other.statusCode, 403);
    assert.doesNotMatch(other.body, /changed|doc\.txt/, "nothing of bob's comes back");
    const unknown = await get(t, `${api}?since=${Number(foreign) + 1000}&format=json`, alice);
    assert.equal(unknown.statusCode, 200);
    assert.equal(unknown.headers["x-activity-first-known"], String(own));
  });
});
