import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import type { FetchBrowser } from "../support/fetch-browser.js";
import { accepted } from "../support/results.js";

export const AUTHORIZE = "/index.php/apps/oauth2/authorize";
export const TOKEN = "/index.php/apps/oauth2/api/v1/token";
export const USERINFO = "/index.php/apps/oauth2/api/v1/userinfo";

export interface TestClient {
  name: string;
  clientId: string;
  secret: string;
  redirectUri: string;
}

export const WEB_CLIENT: TestClient = {
  name: "Web App",
  clientId: "webappclientid0123456789abcdefghijklmnopqrstuv",
  secret: "webappsecret0123456789abcdefghijklmnopqrstuvwxyz",
  redirectUri: "https://app.example.com/callback",
};

export const PASSWORD = "correct horse battery";

/** PNG signature bytes and some payload (avatars are recognised by their signature). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("IHDR-rest-of-image"),
]);

/** The app with user alice (Alice Liddell) and the confidential client WEB_CLIENT registered. */
export async function createOAuthTestApp(
  client: TestClient & { trusted?: boolean; allowSubdomains?: boolean } = WEB_CLIENT,
): Promise<TestApp> {
  const t = await createTestApp();
  accepted(
    await t.services.users.create({ uid: "alice", password: PASSWORD, displayName: "Alice Liddell", email: "alice@example.com" }),
  );
  await addClient(t, client);
  return t;
}

export async function addClient(
  t: TestApp,
  client: TestClient & {
    trusted?: boolean;
    allowSubdomains?: boolean;
    resourceServer?: boolean;
    trustedScopes?: string;
    accountAccess?: boolean;
  },
): Promise<void> {
  const result = await t.services.oauth.clients.add({
    name: client.name,
    clientId: client.clientId,
    secret: client.secret,
    redirectUri: client.redirectUri,
    allowSubdomains: String(client.allowSubdomains ?? false),
    trusted: String(client.trusted ?? false),
    forceTrust: "true",
    resourceServer: String(client.resourceServer ?? false),
    accountAccess: String(client.accountAccess ?? false),
    trustedScopes: client.trustedScopes,
  });
  assert.ok(result.ok, result.ok ? "" : result.message);
}

export async function loggedIn(t: TestApp, uid = "alice", password = PASSWORD): Promise<FormClient> {
  const browser = new FormClient(t.app);
  const response = await browser.login(uid, password);
  assert.equal(response.statusCode, 303);
  return browser;
}

export function authorizeUrl(client: TestClient, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    ...params,
  });
  return `${AUTHORIZE}?${query}`;
}

/** GET the consent page, POST the form; returns the redirect Location. */
export async function consent(browser: FormClient, url: string): Promise<string> {
  const page = await browser.get(url);
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /id="oauth-consent"/);
  const response = await browser.post(url, { requesttoken: requestTokenOf(page.body) });
  assert.equal(response.statusCode, 303, response.body);
  return String(response.headers.location);
}

/** A fresh authorization code for alice. */
export async function issueCode(
  t: TestApp,
  client: TestClient = WEB_CLIENT,
  params: Record<string, string> = {},
): Promise<string> {
  const browser = await loggedIn(t);
  const location = await consent(browser, authorizeUrl(client, params));
  const code = new URL(location).searchParams.get("code");
  assert.ok(code, location);
  return code;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

export function tokenRequest(
  t: TestApp,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: "POST",
    url: TOKEN,
    payload: new URLSearchParams(form).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

/** Exchanges a code with Basic client authentication. */
export function exchangeCode(
  t: TestApp,
  code: string,
  extra: Record<string, string> = {},
  client: TestClient = WEB_CLIENT,
): Promise<LightMyRequestResponse> {
  return tokenRequest(
    t,
    { grant_type: "authorization_code", code, redirect_uri: client.redirectUri, ...extra },
    { authorization: basic(client.clientId, client.secret) },
  );
}

export function refresh(
  t: TestApp,
  refreshToken: string,
  headers: Record<string, string> = {},
  client: TestClient = WEB_CLIENT,
): Promise<LightMyRequestResponse> {
  return tokenRequest(
    t,
    { grant_type: "refresh_token", refresh_token: refreshToken },
    { authorization: basic(client.clientId, client.secret), ...headers },
  );
}

export function userinfo(t: TestApp, accessToken: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: "GET", url: USERINFO, headers: { authorization: `Bearer ${accessToken}` } });
}

/**
 * A person in a real HTTP browser (`FetchBrowser`, over a listening app): the authorization URL,
 * the login form as alice, consent, then the redirect the relying party receives. `loginPageShows`
 * checks what the login page says about the requesting client.
 */
export async function authorizeInBrowser(
  browser: FetchBrowser,
  authorizationUrl: string,
  options: { loginPageShows?: RegExp } = {},
): Promise<URL> {
  const first = await browser.request(authorizationUrl);
  assert.equal(first.status, 303);
  const loginUrl = String(first.headers.get("location"));
  assert.match(loginUrl, /^\/index\.php\/login\?redirect_url=/);
  const loginPage = await (await browser.request(loginUrl)).text();
  if (options.loginPageShows) assert.match(loginPage, options.loginPageShows);
  const back = new URL(loginUrl, "http://keystream.invalid").searchParams.get("redirect_url") as string;
  const login = await browser.request("/index.php/login", {
    user: "alice",
    password: PASSWORD,
    requesttoken: requestTokenOf(loginPage),
    redirect_url: back,
  });
  assert.equal(login.status, 303);
  const consentUrl = String(login.headers.get("location"));
  const consentPage = await (await browser.request(consentUrl)).text();
  assert.match(consentPage, /id="oauth-consent"/);
  const decision = await browser.request(consentUrl, { requesttoken: requestTokenOf(consentPage) });
  assert.equal(decision.status, 303);
  return new URL(String(decision.headers.get("location")));
}

/** The OAuth test app (see createOAuthTestApp) with admin root, and root's logged-in browser. */
export interface AppWithAdmin {
  readonly t: TestApp;
  readonly admin: FormClient;
}

/**
 * Registers `before`/`after` hooks in the enclosing `describe`: a fresh createOAuthTestApp() with
 * the admin root (password "root password!") logged in. The returned object is filled in once
 * `before` has run.
 */
export function oauthAppWithLoggedInAdmin(): AppWithAdmin {
  let t: TestApp | undefined;
  let admin: FormClient | undefined;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", password: "root password!", isAdmin: true }));
    admin = await loggedIn(t, "root", "root password!");
  });
  after(() => t?.close());
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("oauthAppWithLoggedInAdmin: used before its before() hook ran");
    return value;
  };
  return {
    get t() {
      return started(t);
    },
    get admin() {
      return started(admin);
    },
  };
}
