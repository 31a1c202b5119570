import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { createOAuthTestApp, exchangeCode, loggedIn, WEB_CLIENT } from "../oauth/support.js";
import { openIdCode } from "../oidc/support.js";
import type { TestApp } from "../support/app.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * The OpenID Foundation's Config OP plan (openid-certification/conformance-suite,
 * OIDCCConfigTestPlan.java), re-created: its one module, oidcc-discovery-endpoint-verification,
 * reads the OpenID Provider Configuration (OpenID Connect Discovery 1.0 §3, §4) and the JWKS.
 * The server's signing-key rotation (oidcc-server-rotate-keys, of the Dynamic plan) is checked
 * here too, since it is about what discovery publishes.
 */
const BASE = "https://cloud.example.org";
const ISSUER = `${BASE}/index.php/apps/oauth2`;

describe(`OpenID Connect Config OP plan, re-created (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let discovery: Record<string, unknown>;

  /** The path of an advertised URL under the issuer's base. */
  const pathOf = (url: unknown): string => {
    assert.equal(typeof url, "string");
    assert.ok((url as string).startsWith(`${BASE}/`), String(url));
    return (url as string).slice(BASE.length);
  };
  const jwks = async () => (await t.app.inject({ method: "GET", url: pathOf(discovery.jwks_uri) })).json();

  before(async () => {
    t = await createOAuthTestApp();
    t.services.settings.set("overwrite.cli.url", BASE);
    const response = await t.app.inject({ method: "GET", url: "/index.php/apps/oauth2/.well-known/openid-configuration" });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    discovery = response.json();
  });
  after(() => t.close());

  it("oidcc-discovery-endpoint-verification: the issuer is the URL discovery was fetched under (Discovery §4.3), every endpoint is https under it", () => {
    assert.equal(discovery.issuer, ISSUER);
    for (const name of [
      "authorization_endpoint",
      "token_endpoint",
      "userinfo_endpoint",
      "jwks_uri",
      "end_session_endpoint",
      "revocation_endpoint",
      "introspection_endpoint",
    ]) {
      assert.match(String(discovery[name]), /^https:\/\//, name);
      pathOf(discovery[name]);
    }
  });

  it("oidcc-discovery-endpoint-verification: the required and the Basic profile's metadata (Discovery §3)", () => {
    assert.ok((discovery.scopes_supported as string[]).includes("openid"));
    assert.ok((discovery.response_types_supported as string[]).includes("code"));
    assert.deepEqual(discovery.subject_types_supported, ["public"]);
    assert.deepEqual(discovery.id_token_signing_alg_values_supported, ["RS256"]);
    assert.deepEqual(discovery.response_modes_supported, ["query", "fragment", "form_post"]);
    for (const grant of ["authorization_code", "refresh_token", "implicit"]) {
      assert.ok((discovery.grant_types_supported as string[]).includes(grant), grant);
    }
    for (const method of ["client_secret_basic", "client_secret_post"]) {
      assert.ok((discovery.token_endpoint_auth_methods_supported as string[]).includes(method), method);
    }
  });

  it("oidcc-discovery-endpoint-verification: claims_supported names every claim the ID token and UserInfo carry; claims_parameter_supported is true", () => {
    assert.equal(discovery.claims_parameter_supported, true);
    const claims = discovery.claims_supported as string[];
    for (const claim of [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "nonce",
      "name",
      "preferred_username",
      "picture",
      "email",
      "email_verified",
    ]) {
      assert.ok(claims.includes(claim), claim);
    }
  });

  it("oidcc-discovery-endpoint-verification: request objects are refused, and discovery says so (request_parameter_supported, request_uri_parameter_supported false)", () => {
    assert.equal(discovery.request_parameter_supported, false);
    assert.equal(discovery.request_uri_parameter_supported, false);
  });

  it("oidcc-discovery-endpoint-verification: the JWKS holds RSA signature keys with kid and no private part", async () => {
    const { keys } = await jwks();
    assert.ok(keys.length >= 1);
    for (const key of keys) {
      assert.equal(key.kty, "RSA");
      assert.ok(key.kid);
      assert.ok(key.n && key.e);
      assert.equal(key.d, undefined, "no private exponent");
    }
  });

  it("oidcc-server-rotate-keys: after oidc:rotate-key a new ID token is signed with the new key, and one signed before still verifies (the retired key is published)", async () => {
    const browser = await loggedIn(t);
    const before = (await exchangeCode(t, await openIdCode(browser))).json().id_token as string;
    const rotated = await t.services.oidc.keys.rotate();
    const after = (await exchangeCode(t, await openIdCode(browser))).json().id_token as string;
    assert.equal(decodeProtectedHeader(after).kid, rotated.kid);
    assert.notEqual(decodeProtectedHeader(before).kid, rotated.kid);
    const keySet = createLocalJWKSet(await jwks());
    for (const token of [before, after]) {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: ISSUER,
        audience: WEB_CLIENT.clientId,
        currentDate: new Date(t.clock.nowSeconds() * 1000),
      });
      assert.equal(payload.sub, "alice");
    }
  });
});
