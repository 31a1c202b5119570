import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { appInBrowserWithAlice, browserSkipReason, submitLoginForm } from "../support/browser.js";

describe("login in a real browser (Chromium)", { skip: browserSkipReason() }, () => {
  const site = appInBrowserWithAlice();

  it("a wrong password shows the form again with the error, and no session", async (ctx) => {
    const { page } = site.browser;
    await page.goto(`${site.baseUrl}/index.php/login`);
    assert.equal(await page.title(), "Log in - Keystream");
    await submitLoginForm(page, "alice", "not the password");
    assert.equal(await page.locator("#login-error").textContent(), "Wrong username or password.");
    assert.equal(await page.inputValue("#user"), "alice", "the user name is kept");
    assert.equal(await page.inputValue("#password"), "", "the password is not echoed back");
    ctx.diagnostic(`screenshot: ${await site.browser.screenshot("login-wrong-password")}`);
    await page.goto(`${site.baseUrl}/index.php/settings/personal`);
    assert.match(page.url(), /\/index\.php\/login\?redirect_url=/, "still logged out");
  });

  it("the right password reaches the personal settings page, logged in", async (ctx) => {
    const { page } = site.browser;
    await page.goto(`${site.baseUrl}/index.php/login`);
    await submitLoginForm(page, "alice", "correct horse");
    assert.equal(new URL(page.url()).pathname, "/index.php/settings/personal");
    assert.equal(await page.locator("#profile-display-name").textContent(), "Alice Liddell");
    assert.equal(await page.locator("#profile-uid").textContent(), "alice");
    assert.ok(await page.locator("#logout").isVisible());
    const cookies = await site.browser.context.cookies(site.baseUrl);
    const session = cookies.find((c) => c.name === "ks_session");
    assert.ok(session?.httpOnly, "the session cookie is HttpOnly");
    assert.equal(session?.sameSite, "Lax");
    ctx.diagnostic(`screenshot: ${await site.browser.screenshot("personal-settings")}`);
  });

  it("creates an app password in the page, then logs out", async (ctx) => {
    const { page } = site.browser;
    await page.goto(`${site.baseUrl}/index.php/settings/personal`);
    await page.fill("#app-password-name", "Browser test device");
    await Promise.all([page.waitForNavigation(), page.click("#create-app-password button[type=submit]")]);
    const secret = String(await page.locator("#new-app-password code.secret").textContent());
    assert.match(secret, /^[A-Za-z0-9]{72}$/);
    assert.match(String(await page.locator("#app-password-list").textContent()), /Browser test device/);
    ctx.diagnostic(`screenshot: ${await site.browser.screenshot("app-password-created")}`);
    await Promise.all([page.waitForNavigation(), page.click("#logout")]);
    assert.equal(new URL(page.url()).pathname, "/index.php/login");
    await page.goto(`${site.baseUrl}/index.php/settings/personal`);
    assert.match(page.url(), /\/index\.php\/login\?redirect_url=/, "logged out");
  });

  it("after login, redirect_url brings the visitor back where they wanted to go", async () => {
    const { page } = site.browser;
    await page.goto(`${site.baseUrl}/index.php/settings/personal?tab=security`);
    assert.match(page.url(), /\/index\.php\/login\?redirect_url=/);
    await submitLoginForm(page, "alice", "correct horse");
    const url = new URL(page.url());
    assert.equal(url.pathname + url.search, "/index.php/settings/personal?tab=security");
  });
});
