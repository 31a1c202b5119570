import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { TestApp } from "../support/app.js";
import { basic, createOAuthTestApp, issueCode, tokenRequest, WEB_CLIENT } from "./support.js";

const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");

/**
 * research/owncloud-desktop-client.md §3: the desktop client sends its credentials in the Basic
 * header AND in the body (client_id, client_secret), with PKCE. Both at once are accepted; they must agree.
 */
describe("token endpoint: client credentials in the Basic header and the body at once", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  async function redeem(body: Record<string, string>, authorization?: string) {
    const code = await issueCode(t, WEB_CLIENT, { code_challenge: CHALLENGE, code_challenge_method: "S256" });
    return tokenRequest(
      t,
      { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri, code_verifier: VERIFIER, ...body },
      authorization ? { authorization } : {},
    );
  }

  it("accepts the desktop client's form: Basic plus the same client_id and client_secret in the body, with PKCE", async () => {
    const response = await redeem(
      { client_id: WEB_CLIENT.clientId, client_secret: WEB_CLIENT.secret, scope: "openid offline_access email profile" },
      basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
    );
    assert.equal(response.statusCode, 200, response.body);
  });

  it("refuses a body client_id that names another client than the Basic header", async () => {
    const response = await redeem(
      { client_id: "someoneelse0123456789abcdefghijklmnop" },
      basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
    );
    assert.equal(response.statusCode, 401);
    assert.equal(JSON.parse(response.body).error, "invalid_client");
  });

  it("refuses a body client_secret that is not the secret, even with a valid Basic header", async () => {
    const response = await redeem(
      { client_id: WEB_CLIENT.clientId, client_secret: "not-the-secret-0123456789abcdefghijkl" },
      basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
    );
    assert.equal(response.statusCode, 401);
    assert.equal(JSON.parse(response.body).error, "invalid_client");
  });

  it("verifies a Basic header even on the PKCE path: a wrong secret there is invalid_client, not the public path", async () => {
    const response = await redeem(
      { client_id: WEB_CLIENT.clientId },
      basic(WEB_CLIENT.clientId, "wrong-secret-0123456789abcdefghijklmn"),
    );
    assert.equal(response.statusCode, 401);
    assert.match(String(response.headers["www-authenticate"]), /^Basic/);
  });

  it("without a Basic header, a wrong client_secret in the body is 401 invalid_client (client_secret_post), never the public path", async () => {
    const response = await redeem({ client_id: WEB_CLIENT.clientId, client_secret: "guess-0123456789abcdefghijklmnopqrstu" });
    assert.equal(response.statusCode, 401);
    assert.equal(JSON.parse(response.body).error, "invalid_client");
    assert.match(String(response.headers["www-authenticate"]), /^Basic/);
  });

  it("a changed secret takes effect at once: the old one is refused, the new one accepted", async () => {
    const changed = `${WEB_CLIENT.secret}-changed`;
    const ok = () => redeem({}, basic(WEB_CLIENT.clientId, WEB_CLIENT.secret));
    assert.equal((await ok()).statusCode, 200, "the secret in use before the change");
    assert.equal((await t.services.oauth.clients.modify(WEB_CLIENT.name, "client-secret", changed)).ok, true);
    try {
      const old = await ok();
      assert.equal(old.statusCode, 401, old.body);
      assert.equal(JSON.parse(old.body).error, "invalid_client");
      assert.equal((await redeem({}, basic(WEB_CLIENT.clientId, changed))).statusCode, 200);
    } finally {
      await t.services.oauth.clients.modify(WEB_CLIENT.name, "client-secret", WEB_CLIENT.secret);
    }
  });
});
