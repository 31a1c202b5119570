import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { FORWARD_AUTH_PATH } from "../../src/http/routes/forward-auth.js";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import {
  addClient,
  authorizeUrl,
  basic,
  consent,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  loggedIn,
  refresh,
  type TestClient,
  tokenRequest,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

/**
 * Scopes (src/oauth/domain/scope.ts, docs/security.md "Scopes"): every grant records what it was
 * granted, every token carries it, and every surface checks it in one place; the ownCloud and
 * Nextcloud clients keep the full access they always had.
 */

const RELYING_PARTY: TestClient = {
  name: "Sign-in RP",
  clientId: "signinrpclientid0123456789abcdefghijklmnop",
  secret: "signinrpsecret0123456789abcdefghijklmnopqrs",
  redirectUri: "https://rp.example/cb",
};
/** Consented to by the prompt=none test alone (every other test's grants would count as consent). */
const SILENT_RP: TestClient = {
  name: "Silent RP",
  clientId: "silentrpclientid0123456789abcdefghijklmnop",
  secret: "silentrpsecret0123456789abcdefghijklmnopqrs",
  redirectUri: "https://silent.example/cb",
};
const TRUSTED_RP: TestClient = {
  name: "Trusted RP",
  clientId: "trustedrpclientid0123456789abcdefghijklmno",
  secret: "trustedrpsecret0123456789abcdefghijklmnopq",
  redirectUri: "https://trusted.example/cb",
};
const TRUSTED_FOR_ALL: TestClient = {
  name: "Trusted for all",
  clientId: "trustedallclientid0123456789abcdefghijklmn",
  secret: "trustedallsecret0123456789abcdefghijklmnop",
  redirectUri: "https://all.example/cb",
};
const DESKTOP = DEFAULT_CLIENTS[0] as (typeof DEFAULT_CLIENTS)[number];
const DESKTOP_CLIENT: TestClient = {
  name: DESKTOP.name,
  clientId: DESKTOP.clientId,
  secret: DESKTOP.secret,
  redirectUri: "http://localhost:41234",
};
/** What ownCloud desktop 2.11 sends with its authorization and token requests (docs/upstream/desktop-clients.md). */
const DESKTOP_SCOPE = "openid offline_access email profile";
const STREAM = "/ocs/v2.php/apps/activity/api/v2/activity?format=json";

function bearer(
  t: TestApp,
  method: "GET" | "PUT",
  url: string,
  token: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
}

function assertInsufficientScope(response: LightMyRequestResponse, required: string, what: string): void {
  assert.equal(response.statusCode, 403, `${what}: ${response.body}`);
  assert.equal(
    response.headers["www-authenticate"],
    `Bearer realm="Keystream", error="insufficient_scope", scope="${required}"`,
    what,
  );
}

async function tokensFor(t: TestApp, client: TestClient, scope?: string): Promise<Record<string, string>> {
  const code = await issueCode(t, client, scope === undefined ? {} : { scope });
  const response = await exchangeCode(t, code, {}, client);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

describe(`scopes (${testDatabaseDialect})`, () => {
  let t: TestApp;

  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, RELYING_PARTY);
    await addClient(t, SILENT_RP);
    await addClient(t, { ...TRUSTED_RP, trusted: true, trustedScopes: "openid profile" });
    await addClient(t, { ...TRUSTED_FOR_ALL, trusted: true });
  });
  after(() => t.close());

  it("a sign-in token cannot open the user's push socket: no pre-auth token without activity:read", async () => {
    const preAuth = (accessToken: string) =>
      t.app.inject({
        method: "POST",
        url: "/index.php/apps/notify_push/pre_auth",
        headers: { authorization: `Bearer ${accessToken}` },
      });
    const signIn = await tokensFor(t, RELYING_PARTY, "openid profile email offline_access");
    const refused = await preAuth(signIn.access_token as string);
    assert.equal(refused.statusCode, 403);
    assert.match(String(refused.headers["www-authenticate"]), /error="insufficient_scope", scope="activity:read"/);
    const reader = await tokensFor(t, RELYING_PARTY, "openid activity:read");
    const issued = await preAuth(reader.access_token as string);
    assert.equal(issued.statusCode, 200, issued.body);
    assert.ok(issued.body.length > 20, "a pre-auth token");
  });

  it("a sign-in token does not open the file server", async () => {
    const tokens = await tokensFor(t, RELYING_PARTY, "openid profile email offline_access");
    assert.equal(tokens.scope, "openid profile email offline_access");
    const files = await t.app.inject({
      method: "GET",
      url: FORWARD_AUTH_PATH,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assertInsufficientScope(files, "files", "forward auth");
    assert.equal(files.headers["x-keystream-user"], undefined);
    assert.equal(files.body, "");
  });

  it("a sign-in token opens UserInfo and no API: not the activity stream, OCS user (the e-mail address) or its settings", async () => {
    const tokens = await tokensFor(t, RELYING_PARTY, "openid");
    assert.equal((await userinfo(t, tokens.access_token as string)).statusCode, 200);
    const token = tokens.access_token as string;
    assertInsufficientScope(await bearer(t, "GET", STREAM, token), "activity:read", "activity stream");
    assertInsufficientScope(await bearer(t, "GET", "/ocs/v2.php/cloud/user?format=json", token), "account", "OCS user");
    assertInsufficientScope(
      await bearer(t, "GET", "/index.php/apps/activity/api/v2/settings", token),
      "activity:read",
      "settings",
    );
    assertInsufficientScope(await bearer(t, "GET", "/remote.php/dav/avatars/alice/64.png", token), "profile", "avatar");
    const refused = await bearer(t, "GET", STREAM, token);
    assert.equal(refused.json().error, "insufficient_scope");
  });

  it("an ownCloud client token still syncs files: the desktop client's sign-in scopes come with the account scope", async () => {
    const tokens = await tokensFor(t, DESKTOP_CLIENT, DESKTOP_SCOPE);
    assert.equal(tokens.scope, "account openid profile email offline_access");
    const token = tokens.access_token as string;
    const files = await t.app.inject({ method: "GET", url: FORWARD_AUTH_PATH, headers: { authorization: `Bearer ${token}` } });
    assert.equal(files.statusCode, 200);
    assert.equal(files.headers["x-keystream-user"], "alice");
    assert.equal((await bearer(t, "GET", STREAM, token)).statusCode, 200);
    assert.equal((await bearer(t, "GET", "/ocs/v2.php/cloud/user?format=json", token)).statusCode, 200);
    // The client refreshes with the same scope in the body (docs/upstream/desktop-clients.md): the
    // new token keeps the grant's scope.
    const refreshed = await tokenRequest(
      t,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, scope: DESKTOP_SCOPE },
      { authorization: basic(DESKTOP_CLIENT.clientId, DESKTOP_CLIENT.secret) },
    );
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.equal(refreshed.json().scope, "account openid profile email offline_access");
  });

  it("a request without scope is granted the account scope: full access, as ownCloud's clients have always had", async () => {
    const tokens = await tokensFor(t, WEB_CLIENT);
    assert.equal(tokens.scope, "account");
    const files = await t.app.inject({
      method: "GET",
      url: FORWARD_AUTH_PATH,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(files.statusCode, 200);
    assert.equal((await bearer(t, "GET", STREAM, tokens.access_token as string)).statusCode, 200);
    const again = await refresh(t, tokens.refresh_token as string);
    assert.equal(again.json().scope, "account");
  });

  it("a named API scope opens its surface and nothing else", async () => {
    const files = (await tokensFor(t, RELYING_PARTY, "files")).access_token as string;
    const auth = (url: string, token: string) =>
      t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
    assert.equal((await auth(FORWARD_AUTH_PATH, files)).statusCode, 200);
    assertInsufficientScope(await bearer(t, "GET", STREAM, files), "activity:read", "files token on the stream");

    const reader = (await tokensFor(t, RELYING_PARTY, "activity:read")).access_token as string;
    assert.equal((await bearer(t, "GET", STREAM, reader)).statusCode, 200);
    assertInsufficientScope(
      await bearer(t, "PUT", "/index.php/apps/activity/api/v2/settings", reader, { stream: {} }),
      "activity:write",
      "activity:read token changing settings",
    );
    assertInsufficientScope(await auth(FORWARD_AUTH_PATH, reader), "files", "activity:read token at the file server");
  });

  it("forward authentication requires the scope a site names, files by default", async () => {
    const reader = (await tokensFor(t, RELYING_PARTY, "activity:read")).access_token as string;
    const files = (await tokensFor(t, RELYING_PARTY, "files")).access_token as string;
    const site = `${FORWARD_AUTH_PATH}?scope=activity:read`;
    const ask = (url: string, token: string) =>
      t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
    assert.equal((await ask(site, reader)).statusCode, 200);
    assertInsufficientScope(await ask(site, files), "activity:read", "files token at an activity:read site");
    // A credential that is the account itself passes every site.
    const appPassword = accepted(await t.services.appPasswords.create("alice", "sync")).secret;
    const withAppPassword = await t.app.inject({
      method: "GET",
      url: site,
      headers: { authorization: basic("alice", appPassword) },
    });
    assert.equal(withAppPassword.statusCode, 200);
    const unknown = await ask(`${FORWARD_AUTH_PATH}?scope=everything`, files);
    assert.equal(unknown.statusCode, 400, "a site naming no scope Keystream has is a configuration error");
  });

  it("unknown scope values are ignored; a request naming no scope Keystream has is refused with invalid_scope", async () => {
    const tokens = await tokensFor(t, RELYING_PARTY, "openid read:user");
    assert.equal(tokens.scope, "openid");
    const browser = await loggedIn(t);
    const response = await browser.get(authorizeUrl(RELYING_PARTY, { scope: "read:user write:repo", state: "s1" }));
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, RELYING_PARTY.redirectUri);
    assert.equal(location.searchParams.get("error"), "invalid_scope");
    assert.equal(location.searchParams.get("state"), "s1");
  });

  it("prompt=none never widens a grant: a request for more than was consented is consent_required", async () => {
    const browser = await loggedIn(t);
    const consented = await consent(browser, authorizeUrl(SILENT_RP, { scope: "openid", nonce: "n" }));
    assert.ok(new URL(consented).searchParams.get("code"));
    const silent = (scope: string) => browser.get(authorizeUrl(SILENT_RP, { scope, prompt: "none", nonce: "n" }));
    const same = new URL(String((await silent("openid")).headers.location));
    assert.ok(same.searchParams.get("code"), "the consented scope again: granted silently");
    const wider = new URL(String((await silent("openid profile email")).headers.location));
    assert.equal(wider.searchParams.get("error"), "consent_required");
    assert.equal(wider.searchParams.get("code"), null);
  });

  it("a trusted client skips consent only for the scopes an administrator allowed it", async () => {
    const browser = await loggedIn(t);
    const allowed = await browser.get(authorizeUrl(TRUSTED_RP, { scope: "openid profile" }));
    assert.equal(allowed.statusCode, 303, "trusted for openid profile: no page");
    assert.ok(new URL(String(allowed.headers.location)).searchParams.get("code"));
    const wider = await browser.get(authorizeUrl(TRUSTED_RP, { scope: "openid files" }));
    assert.equal(wider.statusCode, 200, "files was not allowed: the consent page");
    assert.match(wider.body, /id="oauth-consent"/);
    const everything = await browser.get(authorizeUrl(TRUSTED_FOR_ALL));
    assert.equal(everything.statusCode, 303, "trusted without a list: every scope, as ownCloud's trusted clients");
  });

  it("consent lists in plain words what each requested scope lets the application do, files named when files are granted", async () => {
    const browser = await loggedIn(t);
    const lines = async (scope?: string) => {
      const page = await browser.get(authorizeUrl(RELYING_PARTY, scope === undefined ? {} : { scope }));
      assert.equal(page.statusCode, 200);
      const list = /<ul class="scopes" id="oauth-scopes">(.*?)<\/ul>/s.exec(page.body)?.[1] ?? "";
      return [...list.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]);
    };
    assert.deepEqual(await lines("openid"), ["your username, to sign you in"]);
    assert.deepEqual(await lines("openid email files"), [
      "your files: read, change and delete them through the file server",
      "your username, to sign you in",
      "your e-mail address",
    ]);
    const account = await lines();
    assert.equal(account.length, 1);
    assert.match(account[0] as string, /full access to your account in your name: your files/);
  });

  it("introspection states the scope of the token", async () => {
    await addClient(t, {
      name: "Resource server",
      clientId: "resourceserverclientid0123456789abcdefghijk",
      secret: "resourceserversecret0123456789abcdefghijklm",
      redirectUri: "https://rs.example/cb",
      resourceServer: true,
    });
    const tokens = await tokensFor(t, RELYING_PARTY, "openid files");
    const response = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/introspect",
      payload: new URLSearchParams({ token: tokens.access_token as string }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic("resourceserverclientid0123456789abcdefghijk", "resourceserversecret0123456789abcdefghijklm"),
      },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().active, true);
    assert.equal(response.json().scope, "files openid");
  });

  it("discovery lists every scope the authorization endpoint grants", async () => {
    const config = (await t.app.inject({ method: "GET", url: "/index.php/apps/oauth2/.well-known/openid-configuration" })).json();
    assert.deepEqual(config.scopes_supported, [
      "account",
      "files",
      "activity:read",
      "activity:write",
      "openid",
      "profile",
      "email",
      "groups",
      "offline_access",
    ]);
  });

  it("the consent form grants what the page showed, and the requesttoken guards it", async () => {
    const browser = await loggedIn(t);
    const url = authorizeUrl(RELYING_PARTY, { scope: "openid activity:read" });
    const page = await browser.get(url);
    const decision = await browser.post(url, { requesttoken: requestTokenOf(page.body) });
    const code = new URL(String(decision.headers.location)).searchParams.get("code") as string;
    const tokens = (await exchangeCode(t, code, {}, RELYING_PARTY)).json();
    assert.equal(tokens.scope, "activity:read openid");
  });
});
