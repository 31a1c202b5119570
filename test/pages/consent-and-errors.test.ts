import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  AUTHORIZE,
  addClient,
  authorizeUrl,
  createOAuthTestApp,
  loggedIn,
  type TestClient,
  WEB_CLIENT,
} from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";

/** issue 19: the consent page's Deny, and an authorization error page that says what is wrong. */

const ISSUER = "http://localhost:80/index.php/apps/oauth2";

const IMPLICIT: TestClient = {
  name: "Implicit App",
  clientId: "implicitclientid0123456789abcdefghijklmnopqrs",
  secret: "implicitclientsecret0123456789abcdefghijklmnop",
  redirectUri: "https://implicit.example.com/cb",
};

describe("consent page: Deny (RFC 6749 §4.1.2.1)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, IMPLICIT);
  });
  after(() => t.close());

  it("Deny sends error=access_denied with the state and iss to the registered redirect URI, and issues no code", async () => {
    const browser = await loggedIn(t);
    const url = authorizeUrl(WEB_CLIENT, { state: "st&ate" });
    const page = await browser.get(url);
    assert.match(page.body, /<button type="submit" class="secondary" id="deny" name="deny" value="1">Deny<\/button>/);
    const response = await browser.post(url, { requesttoken: requestTokenOf(page.body), deny: "1" });
    assert.equal(response.statusCode, 303);
    const location = new URL(String(response.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, WEB_CLIENT.redirectUri);
    assert.equal(location.searchParams.get("error"), "access_denied");
    assert.equal(location.searchParams.get("state"), "st&ate");
    assert.equal(location.searchParams.get("iss"), ISSUER);
    assert.equal(location.searchParams.get("code"), null);
    const grants = await t.services.storage.db.selectFrom("oauth2_grants").select("id").execute();
    assert.deepEqual(grants, [], "no grant for a denial");
  });

  it("for the implicit flow, Deny puts access_denied in the fragment (RFC 6749 §4.2.2.1)", async () => {
    const browser = await loggedIn(t);
    const url = authorizeUrl(IMPLICIT, { response_type: "token", state: "s1" });
    const page = await browser.get(url);
    const response = await browser.post(url, { requesttoken: requestTokenOf(page.body), deny: "1" });
    assert.equal(response.statusCode, 303);
    const [base, fragment] = String(response.headers.location).split("#");
    assert.equal(base, IMPLICIT.redirectUri);
    const params = new URLSearchParams(fragment);
    assert.equal(params.get("error"), "access_denied");
    assert.equal(params.get("state"), "s1");
    assert.equal(params.get("iss"), ISSUER);
  });

  it("Deny without a valid CSRF token is refused and redirects nowhere", async () => {
    const browser = await loggedIn(t);
    const url = authorizeUrl(WEB_CLIENT, { state: "x" });
    await browser.get(url);
    const response = await browser.post(url, { requesttoken: "forged", deny: "1" });
    assert.equal(response.statusCode, 403);
    assert.equal(response.headers.location, undefined);
  });

  it("Deny for a request whose redirect URI is not registered goes to the start page, never to that URI", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get(authorizeUrl(WEB_CLIENT));
    const url = authorizeUrl(WEB_CLIENT, { redirect_uri: "https://evil.example/cb" });
    const response = await browser.post(url, { requesttoken: requestTokenOf(page.body), deny: "1" });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, "/index.php/settings/personal");
  });

  it("the consent page says in plain words what the application gets, one line per scope asked for", async () => {
    const browser = await loggedIn(t);
    const plain = await browser.get(authorizeUrl(WEB_CLIENT));
    assert.match(plain.body, /The “Web App” application would like permission/, "matching quotation marks");
    assert.doesNotMatch(plain.body, /files, folders and shares/);
    assert.match(plain.body, /access to your account in your name/);
    assert.doesNotMatch(plain.body, /your e-mail address/);
    assert.match(plain.body, /Your answer is sent back to <strong>app\.example\.com<\/strong>\./);
    const openid = await browser.get(authorizeUrl(WEB_CLIENT, { scope: "openid email", nonce: "n" }));
    assert.match(openid.body, /<li>your username, to sign you in<\/li>/);
    assert.match(openid.body, /<li>your e-mail address<\/li>/);
    assert.doesNotMatch(openid.body, /your full name and profile picture/);
  });
});

describe("the authorization error page says what is wrong (never a redirect)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const reasonOf = (body: string) => /data-reason="([a-z_]+)"/.exec(body)?.[1];
  const requestIdOf = (body: string) => /id="request-id">[^<]*<code>([^<]+)<\/code>/.exec(body)?.[1];

  it("an unknown client_id: the page says no such application is registered, with the request id", async () => {
    const browser = await loggedIn(t);
    const response = await browser.get(authorizeUrl({ ...WEB_CLIENT, clientId: "nobody-registered-this" }));
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
    assert.equal(reasonOf(response.body), "unknown_client");
    assert.match(response.body, /No application with this client identifier is registered on this server\./);
    assert.equal(requestIdOf(response.body), response.headers["x-request-id"]);
  });

  it("a redirect URI not registered for the client: the page names the client and says it is not sent there", async () => {
    const browser = await loggedIn(t);
    const response = await browser.get(authorizeUrl(WEB_CLIENT, { redirect_uri: "https://evil.example/cb" }));
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
    assert.equal(reasonOf(response.body), "redirect_uri_mismatch");
    assert.match(response.body, /The application “Web App” asked to send you back to an address that is not registered for it\./);
    assert.doesNotMatch(response.body, /evil\.example/, "the unverified address is not shown as a link");
    assert.equal(requestIdOf(response.body), response.headers["x-request-id"]);
  });

  it("a missing or repeated parameter: the page says a required parameter is missing or repeated", async () => {
    const browser = await loggedIn(t);
    for (const url of [
      `${AUTHORIZE}?response_type=code&client_id=${WEB_CLIENT.clientId}`,
      `${authorizeUrl(WEB_CLIENT)}&client_id=again`,
    ]) {
      const response = await browser.get(url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.headers.location, undefined, url);
      assert.equal(reasonOf(response.body), "invalid_parameters", url);
      assert.match(response.body, /a required parameter \(response_type, client_id or redirect_uri\) is missing/, url);
      assert.equal(requestIdOf(response.body), response.headers["x-request-id"], url);
    }
  });
});
