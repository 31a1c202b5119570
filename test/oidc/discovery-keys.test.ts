import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { decodeProtectedHeader } from "jose";
import { basic, loggedIn, WEB_CLIENT } from "../oauth/support.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOidcTestApp, ISSUER, JWKS, openIdTokens, verifyIdToken } from "./support.js";

const BASE = "http://localhost:80";

describe(`discovery (OpenID Connect Discovery 1.0, RFC 8414, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: "GET", url });

  it("OpenID Discovery 4: the provider configuration is at the issuer + /.well-known/openid-configuration, with the required fields", async () => {
    const response = await get("/index.php/apps/oauth2/.well-known/openid-configuration");
    assert.equal(response.statusCode, 200);
    const config = response.json();
    assert.equal(config.issuer, ISSUER);
    assert.equal(
      `${config.issuer}/.well-known/openid-configuration`,
      `${BASE}/index.php/apps/oauth2/.well-known/openid-configuration`,
    );
    assert.equal(config.authorization_endpoint, `${BASE}/index.php/apps/oauth2/authorize`);
    assert.equal(config.token_endpoint, `${BASE}/index.php/apps/oauth2/api/v1/token`);
    assert.equal(config.userinfo_endpoint, `${BASE}/index.php/apps/oauth2/api/v1/userinfo`);
    assert.equal(config.jwks_uri, `${BASE}${JWKS}`);
    assert.equal(config.end_session_endpoint, `${BASE}/index.php/apps/oauth2/end-session`);
    assert.deepEqual(config.id_token_signing_alg_values_supported, ["RS256"]);
    assert.deepEqual(config.subject_types_supported, ["public"]);
    assert.ok(config.scopes_supported.includes("openid"));
    for (const claim of ["sub", "name", "preferred_username", "picture", "email", "email_verified", "auth_time", "nonce"]) {
      assert.ok(config.claims_supported.includes(claim), claim);
    }
    assert.ok(config.response_types_supported.includes("code"));
    assert.equal(config.request_uri_parameter_supported, false);
  });

  it("RFC 8414 3: the authorization server metadata is the same document, at the root and at the path-inserted location", async () => {
    const oidc = (await get("/index.php/apps/oauth2/.well-known/openid-configuration")).json();
    const root = await get("/.well-known/oauth-authorization-server");
    const inserted = await get("/.well-known/oauth-authorization-server/index.php/apps/oauth2");
    assert.equal(root.statusCode, 200);
    assert.equal(inserted.statusCode, 200);
    assert.deepEqual(root.json(), oidc);
    assert.deepEqual(inserted.json(), oidc);
  });

  it("the ownCloud desktop client's probe: /.well-known/openid-configuration at the root answers 404 by default", async () => {
    assert.equal((await get("/.well-known/openid-configuration")).statusCode, 404);
  });

  it("oidc.root_discovery=true serves the provider configuration at the root too", async () => {
    t.services.settings.set("oidc.root_discovery", true);
    try {
      const response = await get("/.well-known/openid-configuration");
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().issuer, ISSUER);
    } finally {
      t.services.settings.delete("oidc.root_discovery");
    }
    assert.equal((await get("/.well-known/openid-configuration")).statusCode, 404);
  });

  it("RFC 9207: the authorization response's iss is the discovery document's issuer", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get(
      `/index.php/apps/oauth2/authorize?${new URLSearchParams({ response_type: "code", client_id: "nobody-".repeat(6), redirect_uri: "x" })}`,
    );
    assert.equal(page.statusCode, 400);
    const tokens = await openIdTokens(t, browser);
    assert.equal(
      (await verifyIdToken(t, tokens.id_token)).iss,
      (await get("/.well-known/oauth-authorization-server")).json().issuer,
    );
  });

  it("RFC 7662 2.2: an active introspection answer names the issuer of the discovery document", async () => {
    const tokens = await openIdTokens(t, await loggedIn(t));
    const response = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/introspect",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
      },
      payload: new URLSearchParams({ token: tokens.access_token }).toString(),
    });
    assert.equal(response.json().active, true);
    assert.equal(response.json().iss, (await get("/index.php/apps/oauth2/.well-known/openid-configuration")).json().issuer);
  });
});

describe(`signing keys (issue 15, ${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());

  const jwks = async () => (await t.app.inject({ method: "GET", url: JWKS })).json() as { keys: Array<Record<string, string>> };

  it("the JWKS publishes the signing key with its kid, public part only; the private key is stored sealed", async () => {
    const response = await t.app.inject({ method: "GET", url: JWKS });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/jwk-set\+json/);
    const { keys } = response.json() as { keys: Array<Record<string, string>> };
    assert.equal(keys.length, 1);
    const [key] = keys;
    assert.ok(key);
    assert.equal(key.kty, "RSA");
    assert.equal(key.alg, "RS256");
    assert.equal(key.use, "sig");
    assert.ok(key.kid);
    for (const privatePart of ["d", "p", "q", "dp", "dq", "qi"]) assert.equal(key[privatePart], undefined, privatePart);
    const rows = await t.services.storage.db.selectFrom("oidc_signing_keys").selectAll().execute();
    assert.equal(rows.length, 1);
    assert.match(rows[0]?.private_jwk_sealed ?? "", /^v1\./, "a secret-box envelope");
    assert.doesNotMatch(rows[0]?.private_jwk_sealed ?? "", /"d"/);
  });

  it("on a fresh install, first uses arriving together on one node share one generated key", async () => {
    const fresh = await createOidcTestApp();
    try {
      const answers = await Promise.all([1, 2, 3].map(() => fresh.app.inject({ method: "GET", url: JWKS })));
      const kids = answers.flatMap((answer) => (answer.json() as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid));
      assert.equal(kids.length, 3);
      assert.equal(new Set(kids).size, 1);
      const rows = await fresh.services.storage.db.selectFrom("oidc_signing_keys").selectAll().execute();
      assert.equal(rows.length, 1);
    } finally {
      await fresh.close();
    }
  });

  it("oidc:rotate-key: new ID tokens carry the new kid; a token signed before still verifies during the grace period, not after", async () => {
    const browser = await loggedIn(t);
    const before = await openIdTokens(t, browser);
    const oldKid = decodeProtectedHeader(before.id_token as string).kid;
    const rotated = await t.services.oidc.keys.rotate();
    assert.notEqual(rotated.kid, oldKid);
    assert.deepEqual(rotated.retired, [oldKid]);
    const after = await openIdTokens(t, await loggedIn(t));
    assert.equal(decodeProtectedHeader(after.id_token as string).kid, rotated.kid);
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kid),
      [rotated.kid, oldKid],
    );
    await verifyIdToken(t, after.id_token);
    t.clock.advance(60);
    // Signed by the retired key: still verifies (within its hour of validity, and the grace period).
    await verifyIdToken(t, before.id_token);
    t.clock.advance(t.services.settings.get("oidc.key_grace_period"));
    assert.deepEqual(
      (await jwks()).keys.map((k) => k.kid),
      [rotated.kid],
      "past the grace period the old key is unpublished",
    );
  });

  it("two nodes sharing the database sign with the same key and see a rotation made on the other", async () => {
    const second = await createAppOn(t.testStorage.storage, t.testStorage.dataDir, t.clock);
    try {
      const jwksOf = async (app: TestApp["app"]) => (await app.inject({ method: "GET", url: JWKS })).json();
      assert.deepEqual(await jwksOf(second.app), await jwksOf(t.app));
      const rotated = await second.services.oidc.keys.rotate();
      assert.equal((await jwksOf(t.app)).keys[0].kid, rotated.kid, "the first node publishes the second's new key at once");
      const tokens = await openIdTokens(t, await loggedIn(t));
      assert.equal(decodeProtectedHeader(tokens.id_token as string).kid, rotated.kid, "and signs with it");
    } finally {
      await second.app.close();
    }
  });
});
