import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AxeBuilder } from "@axe-core/playwright";
import type { CDPSession, Page } from "playwright-core";
import type { TestApp } from "../support/app.js";
import { createTestApp } from "../support/app.js";
import { browserSkipReason, launchBrowser, submitLoginForm, type TestBrowser } from "../support/browser.js";
import { accepted } from "../support/results.js";

/**
 * Passkeys in real Chromium with a virtual authenticator (Chrome DevTools Protocol, WebAuthn
 * domain): a platform authenticator with resident keys and user verification, as a phone's or a
 * laptop's. WebAuthn wants a secure context and a domain as relying-party id: the app is served on
 * http://localhost:<port>, and `overwrite.cli.url` says so.
 */
describe("passkeys in a real browser (Chromium, virtual authenticator)", { skip: browserSkipReason() }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let base: string;
  let cdp: CDPSession;
  let authenticatorId: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "correct horse", displayName: "Alice Liddell" }));
    const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://localhost:${new URL(address).port}`;
    t.services.settings.set("overwrite.cli.url", base);
    browser = await launchBrowser();
    cdp = await browser.page.context().newCDPSession(browser.page);
    await cdp.send("WebAuthn.enable");
    const added = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    authenticatorId = added.authenticatorId;
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** axe-core at WCAG 2.2 AA on the page as it is (the same tags as accessibility.e2e.test.ts). */
  const assertAccessible = async (page: Page, state: string) => {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    assert.deepEqual(
      results.violations.map((v) => `${state}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      [],
    );
  };

  const logOut = async (page: Page) => {
    await page.goto(`${base}/index.php/settings/personal`);
    await Promise.all([page.waitForNavigation(), page.click("#logout")]);
    assert.equal(new URL(page.url()).pathname, "/index.php/login");
  };

  /** Fills the password confirmation inside `scope` when the page asks for it. */
  const confirmIfAsked = async (page: Page, scope: string) => {
    const field = page.locator(`${scope} input[name=confirm_password]`);
    if ((await field.count()) > 0) await field.fill("correct horse");
  };

  it("registers a passkey in personal settings: named, listed, on the authenticator as a discoverable credential", async (ctx) => {
    const { page } = browser;
    await page.goto(`${base}/index.php/login`);
    await submitLoginForm(page, "alice", "correct horse");
    assert.equal(new URL(page.url()).pathname, "/index.php/settings/personal");
    assert.equal(await page.locator("#passkey-none").textContent(), "No passkeys registered.");
    await page.fill("#passkey-name", "Work laptop");
    await confirmIfAsked(page, "#passkey-add-form");
    await page.click("#passkey-add-submit");
    // The script reloads the page once the passkey is registered.
    await page.locator("#passkey-list").waitFor();
    const row = page.locator("#passkey-list tbody tr");
    assert.equal(await row.count(), 1);
    assert.equal(await row.locator("td").first().textContent(), "Work laptop");
    assert.equal(await row.locator("td").nth(2).textContent(), "never", "not used yet");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]?.isResidentCredential, true, "residentKey required: a discoverable credential");
    assert.equal(credentials[0]?.rpId, "localhost", "the relying party id is overwrite.cli.url's host");
    const stored = await t.services.passkeys.list("alice");
    assert.deepEqual(
      stored.map((p) => [p.name, p.id]),
      [["Work laptop", credentials[0]?.credentialId.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")]],
    );
    await assertAccessible(page, "passkey-registered");
    ctx.diagnostic(`screenshot: ${await browser.screenshot("passkey-registered")}`);
  });

  it("signs in with the passkey alone from the browser's autofill (conditional mediation), back to the redirect_url", async () => {
    const { page } = browser;
    // Signed out by dropping the cookies, not through the logout form: the login page the form
    // lands on would sign in by itself too (below), racing the navigation this test makes.
    await page.goto("about:blank");
    await page.context().clearCookies();
    // Chromium's virtual authenticator answers a conditional request at once, as a user picking
    // the passkey from the user field's autofill would: the login page signs in by itself.
    await page.goto(`${base}/index.php/settings/personal?tab=security`);
    await page.waitForURL(`${base}/index.php/settings/personal?tab=security`);
    assert.equal(await page.locator("#profile-uid").textContent(), "alice");
    const [passkey] = await t.services.passkeys.list("alice");
    assert.ok(passkey?.lastUsedAt !== null, "the use is recorded");
    assert.ok((passkey?.counter ?? 0) > 0, "the signature counter moved on");
    assert.notEqual(await page.locator("#passkey-list tbody tr td").nth(2).textContent(), "never");
  });

  it("signs in with the passkey alone through the button, by keyboard, where the browser has no conditional mediation", async (ctx) => {
    const { page } = browser;
    // From here on the page's browser lacks conditional mediation (as some still do): the button is the way.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await logOut(page);
    const before = (await t.services.passkeys.list("alice"))[0]?.counter ?? 0;
    await page.goto(`${base}/index.php/settings/personal?tab=security`);
    assert.match(page.url(), /\/index\.php\/login\?redirect_url=/);
    ctx.diagnostic(`screenshot: ${await browser.screenshot("login-with-passkey-button")}`);
    await Promise.all([
      page.waitForURL(`${base}/index.php/settings/personal?tab=security`),
      page.click("#passkey-sign-in-button"),
    ]);
    assert.equal(await page.locator("#profile-uid").textContent(), "alice");
    assert.ok(((await t.services.passkeys.list("alice"))[0]?.counter ?? 0) > before, "the passkey was used again");
  });

  it("serves as the second factor after the password on the challenge page", async (ctx) => {
    const { page } = browser;
    await logOut(page);
    await page.goto(`${base}/index.php/login`);
    await submitLoginForm(page, "alice", "correct horse");
    assert.equal(new URL(page.url()).pathname, "/index.php/login/challenge", "a passkey makes the password not enough");
    assert.equal(await page.locator("#challenge-webauthn-start").textContent(), "Use a passkey");
    await assertAccessible(page, "challenge-with-passkey");
    ctx.diagnostic(`screenshot: ${await browser.screenshot("challenge-with-passkey")}`);
    await Promise.all([page.waitForURL(`${base}/index.php/settings/personal`), page.click("#challenge-webauthn-start")]);
    assert.equal(await page.locator("#profile-uid").textContent(), "alice");
  });

  it("removes the passkey; signing in with it is then refused", async (ctx) => {
    const { page } = browser;
    await page.goto(`${base}/index.php/settings/personal`);
    const row = page.locator("#passkey-list tbody tr", { hasText: "Work laptop" });
    await confirmIfAsked(page, "#passkey-list");
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Remove" }).click()]);
    assert.equal(await page.locator("#passkey-removed").textContent(), "The passkey was removed.");
    assert.equal(await page.locator("#passkey-none").count(), 1);
    assert.deepEqual(await t.services.passkeys.list("alice"), []);
    await logOut(page);
    await page.goto(`${base}/index.php/login`);
    await page.click("#passkey-sign-in-button");
    await page.locator("#passkey-sign-in-status", { hasText: "The passkey was not accepted" }).waitFor();
    await assertAccessible(page, "passkey-refused");
    ctx.diagnostic(`screenshot: ${await browser.screenshot("passkey-refused")}`);
    assert.equal(new URL(page.url()).pathname, "/index.php/login");
    await page.goto(`${base}/index.php/settings/personal`);
    assert.match(page.url(), /\/index\.php\/login\?redirect_url=/, "still logged out");
  });
});
