import assert from "node:assert/strict";
import { PASSWORD } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import type { FetchBrowser } from "../support/fetch-browser.js";
import { createOidcTestApp } from "./support.js";

/**
 * A listening OIDC test app for relying-party libraries, its clock set to the real time: the
 * libraries check `exp` and `iat` against their own clock.
 */
export async function listeningOidcApp(): Promise<{ t: TestApp; base: string }> {
  const t = await createOidcTestApp();
  t.clock.advance(Math.floor(Date.now() / 1000) - t.clock.nowSeconds());
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const address = t.app.server.address();
  assert.ok(address && typeof address === "object");
  return { t, base: `http://127.0.0.1:${address.port}` };
}

/** Login form → consent → the redirect the relying party receives. */
export async function authorizeInBrowser(browser: FetchBrowser, authorizationUrl: string): Promise<URL> {
  const first = await browser.request(authorizationUrl);
  assert.equal(first.status, 303);
  const loginUrl = String(first.headers.get("location"));
  assert.match(loginUrl, /^\/index\.php\/login\?redirect_url=/);
  const loginPage = await (await browser.request(loginUrl)).text();
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

export async function isLoggedIn(browser: FetchBrowser): Promise<boolean> {
  return (await browser.request("/index.php/settings/personal")).status === 200;
}
