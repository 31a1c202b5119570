import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { browserSkipReason, launchBrowser, listenOnLoopback, submitLoginForm, type TestBrowser } from "../support/browser.js";
import { accepted } from "../support/results.js";

const CLIENT = {
  name: "Photo Sync <beta>",
  clientId: "photosyncclient0123456789abcdefghijkl",
  secret: "photosyncsecret0123456789abcdefghijklmnop",
  // Never served: the browser's navigation to it is intercepted, as an app's callback would be.
  redirectUri: "https://photos.example.com/oauth/callback",
};

/**
 * issue 3 "Must show": the authorization-code flow with PKCE S256 in a real browser (Chromium):
 * login form → consent page → code on the redirect URI → tokens → userinfo → refresh → the old
 * refresh token is rejected. The token calls go over real HTTP to the listening server.
 */
describe("OAuth authorization-code flow in a real browser (Chromium)", { skip: browserSkipReason() }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let baseUrl: string;

  before(async () => {
    t = await createTestApp();
    accepted(
      await t.services.users.create({
        uid: "alice",
        password: "correct horse",
        displayName: "Alice Liddell",
        email: "alice@example.com",
      }),
    );
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

  async function token(form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${baseUrl}/index.php/apps/oauth2/api/v1/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(form),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("logs in, consents, redeems the code with PKCE, reads userinfo and rotates the refresh token", async (ctx) => {
    const { page } = browser;
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const state = randomBytes(8).toString("hex");
    const callback = new Promise<URL>((resolve) => {
      void page.route(`${CLIENT.redirectUri}**`, async (route) => {
        resolve(new URL(route.request().url()));
        await route.fulfill({ status: 200, contentType: "text/plain", body: "callback reached" });
      });
    });

    const authorize = new URL(`${baseUrl}/index.php/apps/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }).toString();
    await page.goto(authorize.toString());

    // Not logged in: the login page, naming the application (escaped, not interpreted).
    assert.equal(new URL(page.url()).pathname, "/index.php/login");
    assert.match(String(await page.locator("main").textContent()), /The application "Photo Sync <beta>" is requesting access/);
    ctx.diagnostic(`screenshot: ${await browser.screenshot("oauth-login")}`);
    await submitLoginForm(page, "alice", "correct horse");

    // Back at authorize: the consent page names the client and the user.
    assert.equal(new URL(page.url()).pathname, "/index.php/apps/oauth2/authorize");
    const consentText = String(await page.locator("main").textContent());
    assert.match(consentText, /Photo Sync <beta>/);
    assert.match(consentText, /Alice Liddell|alice/);
    assert.ok(await page.locator("#oauth-switch-user").isVisible(), "Switch users to continue");
    ctx.diagnostic(`screenshot: ${await browser.screenshot("oauth-consent")}`);
    await page.click("#authorize");

    const redirected = await callback;
    assert.equal(`${redirected.origin}${redirected.pathname}`, CLIENT.redirectUri);
    assert.equal(redirected.searchParams.get("state"), state);
    const code = redirected.searchParams.get("code");
    assert.match(String(code), /^[A-Za-z0-9]{64}$/);

    // A wrong verifier is refused and does not burn the code; the right one redeems it.
    const wrong = await token({
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: CLIENT.redirectUri,
      code_verifier: "x".repeat(43),
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error_description, "code verifier invalid");
    const issued = await token({
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: CLIENT.redirectUri,
      code_verifier: verifier,
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(issued.body.token_type, "Bearer");
    assert.equal(issued.body.user_id, "alice");

    const userinfo = await fetch(`${baseUrl}/index.php/apps/oauth2/api/v1/userinfo`, {
      headers: { authorization: `Bearer ${String(issued.body.access_token)}` },
    });
    assert.equal(userinfo.status, 200);
    const claims = (await userinfo.json()) as Record<string, unknown>;
    assert.equal(claims.sub, "alice");
    assert.equal(claims.name, "Alice Liddell");
    assert.equal(claims.email, "alice@example.com");

    const rotated = await token({ grant_type: "refresh_token", refresh_token: String(issued.body.refresh_token) });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.refresh_token, issued.body.refresh_token);
    const replay = await token({ grant_type: "refresh_token", refresh_token: String(issued.body.refresh_token) });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.error, "invalid_grant");
  });
});
