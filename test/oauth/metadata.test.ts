import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { s256Challenge } from "../../src/oauth/domain/pkce.js";
import { createProxiedApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { formPostOf } from "../support/form-post.js";
import { basic, createOAuthTestApp, PASSWORD, WEB_CLIENT } from "./support.js";

/**
 * issue 5: RFC 8414 metadata that advertises only what works. The walk below reads the document
 * and exercises every endpoint, response type, response mode, grant type, PKCE method and client
 * authentication method it lists, through the advertised URLs; `iss` (RFC 9207) must equal `issuer`.
 */
interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  revocation_endpoint: string;
  introspection_endpoint: string;
  device_authorization_endpoint: string;
  response_types_supported: string[];
  response_modes_supported: string[];
  grant_types_supported: string[];
  code_challenge_methods_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  revocation_endpoint_auth_methods_supported: string[];
  introspection_endpoint_auth_methods_supported: string[];
  authorization_response_iss_parameter_supported: boolean;
}

const ISSUER = "https://cloud.example.org";
const VERIFIER = "metadata-walk-verifier-0123456789abcdefghijklmnopqrstu";

function calculatePkceChallenge(method: string, verifier: string): string {
  if (method === "S256") return s256Challenge(verifier);
  assert.equal(method, "plain", `an advertised PKCE method this walk does not know: ${method}`);
  return verifier;
}

describe("RFC 8414 metadata at /.well-known/oauth-authorization-server", () => {
  let t: TestApp;
  let metadata: Metadata;
  let browser: FormClient;

  /** The advertised URL, as a path the app serves (the issuer prefix removed). */
  const pathOf = (url: string): string => {
    assert.ok(url.startsWith(`${ISSUER}/`), url);
    return url.slice(ISSUER.length);
  };
  const form = (url: string, body: Record<string, string>, authorization?: string): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: "POST",
      url: pathOf(url),
      headers: { "content-type": "application/x-www-form-urlencoded", ...(authorization ? { authorization } : {}) },
      payload: new URLSearchParams(body).toString(),
    });
  const userinfoWith = (token: string) =>
    t.app.inject({ method: "GET", url: pathOf(metadata.userinfo_endpoint), headers: { authorization: `Bearer ${token}` } });

  /** Consent through the advertised authorization endpoint; returns the redirect with its parameters. */
  const authorize = async (params: Record<string, string>): Promise<{ url: URL; params: URLSearchParams }> => {
    const query = new URLSearchParams({ client_id: WEB_CLIENT.clientId, redirect_uri: WEB_CLIENT.redirectUri, ...params });
    const url = `${pathOf(metadata.authorization_endpoint)}?${query}`;
    const page = await browser.get(url);
    assert.equal(page.statusCode, 200, page.body);
    const response = await browser.post(url, { requesttoken: requestTokenOf(page.body) });
    if (params.response_mode === "form_post") {
      assert.equal(response.statusCode, 200, response.body);
      const posted = formPostOf(response.body);
      assert.equal(posted.params.get("iss"), metadata.issuer, "RFC 9207: iss is the issuer");
      return { url: new URL(posted.action), params: posted.params };
    }
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location));
    const carried = location.hash ? new URLSearchParams(location.hash.slice(1)) : location.searchParams;
    assert.equal(carried.get("iss"), metadata.issuer, "RFC 9207: iss is the issuer");
    return { url: location, params: carried };
  };

  before(async () => {
    t = await createOAuthTestApp();
    t.services.settings.set("overwrite.cli.url", ISSUER);
    browser = new FormClient(t.app);
    assert.equal((await browser.login("alice", PASSWORD)).statusCode, 303);
    const response = await t.app.inject({ method: "GET", url: "/.well-known/oauth-authorization-server" });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    metadata = response.json();
  });
  after(() => t.close());

  it("names the issuer from overwrite.cli.url and the endpoints under it", () => {
    assert.equal(metadata.issuer, `${ISSUER}/index.php/apps/oauth2`);
    assert.equal(metadata.authorization_endpoint, `${ISSUER}/index.php/apps/oauth2/authorize`);
    assert.equal(metadata.token_endpoint, `${ISSUER}/index.php/apps/oauth2/api/v1/token`);
    assert.deepEqual(metadata.code_challenge_methods_supported, ["S256", "plain"]);
    assert.deepEqual(metadata.response_types_supported, ["code", "token"]);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  });

  it("/.well-known/openid-configuration stays 404 (the desktop client would switch to OIDC mode)", async () => {
    for (const url of ["/.well-known/openid-configuration", "/index.php/.well-known/openid-configuration"]) {
      assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 404, url);
    }
  });

  it("metadata is publicly cacheable only when overwrite.cli.url fixes the issuer", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/.well-known/oauth-authorization-server",
      headers: { host: "evil.example" },
    });
    assert.equal(response.json().issuer, `${ISSUER}/index.php/apps/oauth2`, "the Host header changes nothing");
    assert.equal(response.headers["cache-control"], "public, max-age=3600");
    assert.equal(response.headers.vary, undefined);
  });

  it("every response type and response mode works at the advertised authorization endpoint, with iss", async () => {
    for (const responseType of metadata.response_types_supported) {
      if (responseType === "code") {
        const { params } = await authorize({ response_type: "code", state: "s1" });
        assert.match(params.get("code") ?? "", /^[A-Za-z0-9]{64}$/);
        assert.equal(params.get("state"), "s1");
      } else {
        assert.equal(responseType, "token", `an advertised response type this walk does not know: ${responseType}`);
        const { params } = await authorize({ response_type: "token" });
        assert.equal((await userinfoWith(params.get("access_token") as string)).statusCode, 200);
      }
    }
    for (const mode of metadata.response_modes_supported) {
      const { url, params } = await authorize({ response_type: "token", response_mode: mode });
      if (mode !== "form_post") {
        assert.equal(mode === "fragment" ? url.hash !== "" : url.search.includes("access_token="), true, mode);
      }
      assert.ok(params.get("access_token"), mode);
    }
  });

  it("an error redirect carries iss too", async () => {
    const query = new URLSearchParams({
      client_id: WEB_CLIENT.clientId,
      redirect_uri: WEB_CLIENT.redirectUri,
      response_type: "id_token",
    });
    const response = await browser.get(`${pathOf(metadata.authorization_endpoint)}?${query}`);
    const location = new URL(String(response.headers.location));
    assert.equal(location.searchParams.get("error"), "unsupported_response_type");
    assert.equal(location.searchParams.get("iss"), `${ISSUER}/index.php/apps/oauth2`);
  });

  /** A request body (and Authorization header) authenticated with an advertised method (RFC 6749 §2.3.1, OAuth registry names). */
  const authenticated = (auth: string, body: Record<string, string>): [Record<string, string>, string | undefined] => {
    switch (auth) {
      case "client_secret_basic":
        return [body, basic(WEB_CLIENT.clientId, WEB_CLIENT.secret)];
      case "client_secret_post":
        return [{ ...body, client_id: WEB_CLIENT.clientId, client_secret: WEB_CLIENT.secret }, undefined];
      case "none":
        return [{ ...body, client_id: WEB_CLIENT.clientId }, undefined];
      default:
        throw new Error(`an advertised method this walk does not know: ${auth}`);
    }
  };

  it("every PKCE method and token endpoint auth method redeems a code; every grant type works", async () => {
    const pairs: Array<{ access_token: string; refresh_token: string; method: string }> = [];
    for (const pkce of metadata.code_challenge_methods_supported) {
      for (const auth of metadata.token_endpoint_auth_methods_supported) {
        const { params } = await authorize({
          response_type: "code",
          code_challenge: calculatePkceChallenge(pkce, VERIFIER),
          code_challenge_method: pkce,
        });
        const body = {
          grant_type: "authorization_code",
          code: params.get("code") as string,
          redirect_uri: WEB_CLIENT.redirectUri,
          code_verifier: VERIFIER,
        };
        const response = await form(metadata.token_endpoint, ...authenticated(auth, body));
        assert.equal(response.statusCode, 200, `${pkce}/${auth}: ${response.body}`);
        pairs.push({ ...response.json(), method: auth });
      }
    }
    const granted = new Set(["authorization_code", "implicit"]);
    for (const pair of pairs) {
      const response = await form(
        metadata.token_endpoint,
        ...authenticated(pair.method, { grant_type: "refresh_token", refresh_token: pair.refresh_token }),
      );
      assert.equal(response.statusCode, 200, `refresh with ${pair.method}: ${response.body}`);
      granted.add("refresh_token");
      pair.access_token = response.json().access_token;
      pair.refresh_token = response.json().refresh_token;
    }
    // RFC 8628: a device authorization approved on the verification page, redeemed by its device code.
    const device = await form(metadata.device_authorization_endpoint, ...authenticated("client_secret_basic", {}));
    assert.equal(device.statusCode, 200, device.body);
    const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri } = device.json();
    const entry = await browser.get(pathOf(verificationUri));
    const confirmation = await browser.post(pathOf(verificationUri), {
      requesttoken: requestTokenOf(entry.body),
      user_code: userCode,
    });
    const approved = await browser.post(pathOf(verificationUri), {
      requesttoken: requestTokenOf(confirmation.body),
      user_code: userCode,
      decision: "approve",
    });
    assert.match(approved.body, /id="device-approved"/);
    const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code";
    const deviceTokens = await form(
      metadata.token_endpoint,
      ...authenticated("client_secret_basic", { grant_type: deviceGrant, device_code: deviceCode }),
    );
    assert.equal(deviceTokens.statusCode, 200, deviceTokens.body);
    assert.equal((await userinfoWith(deviceTokens.json().access_token)).statusCode, 200);
    granted.add(deviceGrant);
    assert.deepEqual([...granted].sort(), [...metadata.grant_types_supported].sort());

    // userinfo, introspection and revocation, with each advertised method, on these tokens.
    const [first, second] = pairs;
    assert.ok(first && second);
    assert.equal((await userinfoWith(first.access_token)).statusCode, 200);
    for (const auth of metadata.introspection_endpoint_auth_methods_supported) {
      const response = await form(metadata.introspection_endpoint, ...authenticated(auth, { token: first.access_token }));
      assert.equal(response.json().active, true, `introspection with ${auth}`);
    }
    for (const auth of metadata.revocation_endpoint_auth_methods_supported) {
      const pair = pairs.find((p) => p.method === auth);
      assert.ok(pair, `a grant obtained with ${auth}`);
      const response = await form(metadata.revocation_endpoint, ...authenticated(auth, { token: pair.refresh_token }));
      assert.equal(response.statusCode, 200, `revocation with ${auth}: ${response.body}`);
      assert.equal((await userinfoWith(pair.access_token)).statusCode, 401, `revoked with ${auth}`);
    }
  });
});

describe("metadata issuer without overwrite.cli.url", () => {
  let t: TestApp;
  let proxied: FastifyInstance;
  before(async () => {
    t = await createOAuthTestApp();
    proxied = await createProxiedApp(t);
  });
  after(async () => {
    await proxied.close();
    await t.close();
  });

  it("is the request's base URL, believing X-Forwarded-* only from a trusted proxy", async () => {
    const headers = { host: "internal:8080", "x-forwarded-proto": "https", "x-forwarded-host": "cloud.example.com" };
    const direct = (await t.app.inject({ method: "GET", url: "/.well-known/oauth-authorization-server", headers })).json();
    assert.equal(direct.issuer, "http://internal:8080/index.php/apps/oauth2");
    const viaProxy = (await proxied.inject({ method: "GET", url: "/.well-known/oauth-authorization-server", headers })).json();
    assert.equal(viaProxy.issuer, "https://cloud.example.com/index.php/apps/oauth2");
    assert.equal(viaProxy.token_endpoint, "https://cloud.example.com/index.php/apps/oauth2/api/v1/token");
  });

  it("metadata derived from the Host header is never stored by a shared cache and varies on the headers it came from", async () => {
    for (const app of [t.app, proxied]) {
      const response = await app.inject({
        method: "GET",
        url: "/.well-known/oauth-authorization-server",
        headers: { host: "evil.example" },
      });
      assert.equal(response.json().issuer, "http://evil.example/index.php/apps/oauth2");
      const cacheControl = String(response.headers["cache-control"]);
      assert.match(cacheControl, /\bprivate\b|\bno-store\b/);
      assert.doesNotMatch(cacheControl, /\bpublic\b|s-maxage/);
      const vary = String(response.headers.vary ?? "").toLowerCase();
      for (const header of ["host", "x-forwarded-host", "x-forwarded-proto"]) assert.match(vary, new RegExp(`\\b${header}\\b`));
    }
  });

  it("status.php is the same whatever the Host header; the capabilities name the host only in the push endpoints; neither is cached", async () => {
    const get = (url: string, host: string) => t.app.inject({ method: "GET", url, headers: { host } });
    const [statusA, statusB] = [await get("/status.php", "cloud.example.com"), await get("/status.php", "evil.example")];
    assert.equal(statusA.statusCode, 200);
    assert.equal(statusA.body, statusB.body, "status.php does not depend on the Host header");
    assert.doesNotMatch(statusA.body, /evil\.example|cloud\.example\.com/);
    const url = "/ocs/v2.php/cloud/capabilities?format=json";
    const [a, b] = [await get(url, "cloud.example.com"), await get(url, "evil.example")];
    assert.equal(a.statusCode, 200);
    // The push endpoints are the request's base URL, as the issuer is without overwrite.cli.url.
    assert.equal(b.json().ocs.data.capabilities.notify_push.endpoints.websocket, "ws://evil.example/push/ws");
    const withoutPush = (body: string) => {
      const parsed = JSON.parse(body);
      delete parsed.ocs.data.capabilities.notify_push;
      return parsed;
    };
    assert.deepEqual(withoutPush(a.body), withoutPush(b.body), "nothing else depends on the Host header");
    for (const response of [statusB, b]) assert.equal(response.headers["cache-control"], "no-store");
  });
});
