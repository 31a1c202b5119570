import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { appInBrowserWithAlice, browserSkipReason, submitLoginForm } from "../support/browser.js";

/**
 * Issue 13: Login Flow v2 end to end over real HTTP, the way the Nextcloud desktop client drives it
 * (research nextcloud-desktop-client.md §2): the client starts the flow and polls with fetch, the
 * user logs in and grants access in Chromium, and the app password then authenticates the API.
 */
describe("Login Flow v2 in a real browser (Chromium)", { skip: browserSkipReason() }, () => {
  const site = appInBrowserWithAlice();

  const pollOnce = (endpoint: string, token: string) =>
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });

  it("login, Grant access, poll: the client receives an app password that works, and revoking it ends access", async (ctx) => {
    const started = await fetch(`${site.baseUrl}/index.php/login/v2`, {
      method: "POST",
      headers: { "user-agent": "e2e-host (Desktop Client - Linux)" },
    });
    assert.equal(started.status, 200);
    const flow = (await started.json()) as { poll: { token: string; endpoint: string }; login: string };
    assert.equal(flow.poll.endpoint, `${site.baseUrl}/index.php/login/v2/poll`);
    assert.equal((await pollOnce(flow.poll.endpoint, flow.poll.token)).status, 404, "not granted yet");

    const { page } = site.browser;
    await page.goto(flow.login);
    assert.match(String(await page.locator(".notice").textContent()), /e2e-host \(Desktop Client - Linux\)/);
    await submitLoginForm(page, "alice", "correct horse");
    assert.equal(page.url(), flow.login, "back on the flow's page after login");
    assert.match(String(await page.locator("#login-flow-client").textContent()), /e2e-host \(Desktop Client - Linux\)/);
    assert.match(String(await page.locator("#login-flow-account").textContent()), /Alice Liddell/);
    ctx.diagnostic(`screenshot: ${await site.browser.screenshot("login-flow-grant")}`);
    await Promise.all([page.waitForNavigation(), page.click("#grant-access")]);
    assert.equal(await page.title(), "Account connected - Keystream");
    ctx.diagnostic(`screenshot: ${await site.browser.screenshot("login-flow-done")}`);

    const polled = await pollOnce(flow.poll.endpoint, flow.poll.token);
    assert.equal(polled.status, 200);
    const credentials = (await polled.json()) as { server: string; loginName: string; appPassword: string };
    assert.equal(credentials.server, site.baseUrl);
    assert.equal(credentials.loginName, "alice");
    assert.equal((await pollOnce(flow.poll.endpoint, flow.poll.token)).status, 404, "delivered once");

    const authorization = `Basic ${Buffer.from(`${credentials.loginName}:${credentials.appPassword}`).toString("base64")}`;
    const api = () =>
      fetch(`${credentials.server}/ocs/v2.php/cloud/user?format=json`, { headers: { authorization, "ocs-apirequest": "true" } });
    assert.equal((await api()).status, 200);

    await page.goto(`${site.baseUrl}/index.php/settings/personal`);
    const row = page.locator("#app-password-list tr", { hasText: "e2e-host (Desktop Client - Linux)" });
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Revoke" }).click()]);
    assert.equal((await api()).status, 401, "revoked in personal settings: the client is signed out");
  });
});
