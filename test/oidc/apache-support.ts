import assert from "node:assert/strict";
import { waitFor } from "../clients/harness/processes.js";
import { PASSWORD } from "../oauth/support.js";
import { formOf } from "../support/apache-httpd.js";
import { requestTokenOf } from "../support/browser-form.js";
import type { NavigatingBrowser } from "../support/navigating-browser.js";

/** A relying party's client at Keystream and its Apache virtual host. */
export interface ApacheClient {
  name: string;
  clientId: string;
  secret: string;
  port: number;
  /** http://127.0.0.1:port */
  origin: string;
  redirectUri: string;
}

/** One request Keystream's token, UserInfo or introspection endpoint received. */
export interface KeystreamCall {
  path: string;
  authorization: string | undefined;
  body: Record<string, string>;
}

const PROTECTED_PAGE = "/protected/env.cgi";

function locationOf(response: Response, from: string): URL {
  const location = response.headers.get("location");
  assert.ok(location, `a redirect from ${from} (status ${response.status})`);
  return new URL(location, from);
}

/**
 * The browser's part of a sign-in through Apache: the protected page sends it to Keystream (a
 * redirect, or with OIDCAuthRequestMethod POST an auto-submitting form), alice signs in on the
 * login page and allows on the consent page, and Keystream's answer (a redirect, or with
 * response_mode=form_post an auto-submitting form) takes the code back to Apache's redirect URI.
 */
export async function signInThroughApache(
  browser: NavigatingBrowser,
  keystream: string,
  client: ApacheClient,
): Promise<{
  authorizationRequest: URL;
  method: "GET" | "POST";
  responseMode: "query" | "form_post";
  session: RelyingPartySession;
}> {
  const start = `${client.origin}${PROTECTED_PAGE}`;
  const first = await browser.request(start);
  let authorizationRequest: URL;
  let method: "GET" | "POST";
  let response: Response;
  if (first.status === 302) {
    method = "GET";
    authorizationRequest = locationOf(first, start);
    response = await browser.request(authorizationRequest.href);
  } else {
    assert.equal(first.status, 200, `Apache answers the protected page with a redirect or a form, not ${first.status}`);
    method = "POST";
    const form = formOf(await first.text());
    authorizationRequest = new URL(form.action);
    for (const [name, value] of Object.entries(form.fields)) authorizationRequest.searchParams.set(name, value);
    response = await browser.request(form.action, form.fields);
  }
  assert.equal(authorizationRequest.origin, keystream, "the authorization request goes to Keystream");

  let url = authorizationRequest.href;
  let callback: Response | undefined;
  let responseMode: "query" | "form_post" = "query";
  for (let step = 0; step < 8 && !callback; step++) {
    if (response.status === 302 || response.status === 303) {
      const next = locationOf(response, url);
      if (next.origin === client.origin) {
        assert.equal(`${next.origin}${next.pathname}`, client.redirectUri);
        assert.ok(next.searchParams.get("code"), next.href);
        callback = await browser.request(next.href);
      } else {
        url = next.href;
        response = await browser.request(url);
      }
      continue;
    }
    const page = await response.text();
    assert.equal(response.status, 200, `${url}: ${response.status}\n${page}`);
    if (new URL(url).pathname === "/index.php/login") {
      response = await browser.request("/index.php/login", {
        user: "alice",
        password: PASSWORD,
        requesttoken: requestTokenOf(page),
        redirect_url: new URL(url).searchParams.get("redirect_url") ?? "",
      });
    } else if (page.includes('id="oauth-consent"')) {
      response = await browser.request(url, { requesttoken: requestTokenOf(page) });
    } else {
      const form = formOf(page);
      assert.equal(form.action, client.redirectUri, "Keystream's form posts to the redirect URI");
      assert.ok(form.fields.code, "with the code");
      responseMode = "form_post";
      callback = await browser.request(form.action, form.fields);
    }
  }
  assert.ok(callback, "Keystream sent the browser back to Apache");
  assert.equal(callback.status, 302, `Apache took the code: ${callback.status} ${await callback.text()}`);
  const back = locationOf(callback, client.redirectUri);
  assert.equal(back.href, start, "back to the page first asked for");
  return { authorizationRequest, method, responseMode, session: new RelyingPartySession(browser, keystream, client) };
}

/** A browser signed in at Apache (and at Keystream), and what it can do there. */
export class RelyingPartySession {
  constructor(
    private readonly browser: NavigatingBrowser,
    private readonly keystream: string,
    private readonly client: ApacheClient,
  ) {}

  /** The protected page: what mod_auth_openidc gave the application. */
  async env(): Promise<Record<string, string>> {
    const response = await this.browser.request(`${this.client.origin}${PROTECTED_PAGE}`);
    assert.equal(response.status, 200, `the protected page: ${response.status}`);
    return (await response.json()) as Record<string, string>;
  }

  /** The redirect URI's info hook (OIDCInfoHook): the session's tokens and claims. */
  async info(): Promise<Record<string, unknown>> {
    const response = await this.browser.request(`${this.client.redirectUri}?info=json`);
    assert.equal(response.status, 200, `the info hook: ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  }

  /** The redirect URI's refresh hook (`?refresh=<return to>&access_token=<current>`); where it returned. */
  async refresh(): Promise<URL> {
    const accessToken = String((await this.info()).access_token);
    const returnTo = `${this.client.origin}${PROTECTED_PAGE}`;
    const hook = `${this.client.redirectUri}?refresh=${encodeURIComponent(returnTo)}&access_token=${encodeURIComponent(accessToken)}`;
    return locationOf(await this.browser.request(hook), hook);
  }

  async apacheLoggedIn(): Promise<boolean> {
    const response = await this.browser.request(`${this.client.origin}${PROTECTED_PAGE}`);
    if (response.status === 200) return true;
    assert.equal(response.status, 302, "not logged in: sent to Keystream");
    assert.equal(locationOf(response, this.client.origin).origin, this.keystream);
    return false;
  }

  async keystreamLoggedIn(): Promise<boolean> {
    return (await this.browser.request(`${this.keystream}/index.php/settings/personal`)).status === 200;
  }

  /**
   * RP-initiated logout at the redirect URI (`?logout=<where to land>`): Apache ends its session and
   * sends the browser to Keystream's end_session_endpoint, which returns it; the landing URL.
   */
  async logout(): Promise<string> {
    const landing = `${this.client.origin}/loggedout.html`;
    const start = `${this.client.redirectUri}?logout=${encodeURIComponent(landing)}`;
    const toKeystream = locationOf(await this.browser.request(start), start);
    assert.equal(toKeystream.origin, this.keystream, "to Keystream's end_session_endpoint");
    assert.ok(toKeystream.searchParams.get("id_token_hint"), "with the ID token as hint");
    const back = locationOf(await this.browser.request(toKeystream.href), toKeystream.href);
    const page = await this.browser.request(back.href);
    assert.equal(page.status, 200);
    return back.href;
  }

  /** The user logs out on Keystream's own pages (the logout button of every page). */
  async logoutAtKeystream(): Promise<void> {
    const page = await (await this.browser.request(`${this.keystream}/index.php/settings/personal`)).text();
    const response = await this.browser.request(`${this.keystream}/index.php/logout`, { requesttoken: requestTokenOf(page) });
    assert.equal(response.status, 303);
  }

  /** Back-channel logout is asynchronous (a queue delivers the logout token): polls Apache. */
  async waitUntilApacheLoggedOut(): Promise<void> {
    await waitFor("the Apache session to end", async () => !(await this.apacheLoggedIn()), 20_000, 100);
  }
}
