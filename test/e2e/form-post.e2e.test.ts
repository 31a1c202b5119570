import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { browserSkipReason, launchBrowser, listenOnLoopback, submitLoginForm, type TestBrowser } from "../support/browser.js";
import { accepted } from "../support/results.js";

const CLIENT = {
  name: "Form Post RP",
  clientId: "formpostclient0123456789abcdefghijklmn",
  secret: "formpostsecret0123456789abcdefghijklmnopq",
  // Never served: the browser's request to it is intercepted, as the relying party would receive it.
  redirectUri: "https://rp.example.com/oidc/callback",
};

/**
 * OAuth 2.0 Form Post Response Mode §2 in a real browser (Chromium): under the pages' CSP
 * (`script-src 'self'`, no inline script) the page's script submits the form by itself, and the
 * relying party receives a POST with the code and state in the form body, nothing in its URL.
 */
describe("response_mode=form_post in a real browser (Chromium)", { skip: browserSkipReason() }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let baseUrl: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "correct horse", displayName: "Alice Liddell" }));
    const added = await t.services.oauth.clients.add({
      name: CLIENT.name,
      clientId: CLIENT.clientId,
      secret: CLIENT.secret,
      redirectUri: CLIENT.redirectUri,
      allowSubdomains: "false",
      trusted: "false",
      forceTrust: "false",
    });
    assert.ok(added.ok);
    baseUrl = await listenOnLoopback(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("the form_post page submits itself: the relying party gets a POST with code, state and iss, and no CSP violation is reported", async () => {
    const { page } = browser;
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.route(`${CLIENT.redirectUri}**`, (route) =>
      route.fulfill({ status: 200, contentType: "text/plain", body: "callback reached" }),
    );
    const authorize = new URL(`${baseUrl}/index.php/apps/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUri,
      scope: "openid",
      nonce: "n-1",
      state: "form-post-state",
      response_mode: "form_post",
    }).toString();
    await page.goto(authorize.href);
    await submitLoginForm(page, "alice", "correct horse");
    await page.locator("#oauth-consent").waitFor();
    // The context's default timeout (15 s) fails the test if the page never submits itself.
    const [request] = await Promise.all([
      page.waitForRequest((sent) => sent.url().startsWith(CLIENT.redirectUri)),
      page.click("#authorize"),
    ]);
    assert.equal(request.method(), "POST");
    assert.equal(request.url(), CLIENT.redirectUri, "nothing in the URL");
    const body = new URLSearchParams(request.postData() ?? "");
    assert.match(body.get("code") ?? "", /^[A-Za-z0-9]{64}$/);
    assert.equal(body.get("state"), "form-post-state");
    assert.equal(body.get("iss"), `${baseUrl}/index.php/apps/oauth2`);
    assert.deepEqual(violations, []);
  });
});
