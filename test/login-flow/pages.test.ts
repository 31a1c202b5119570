import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { dateFormatterFor } from "../../src/i18n/index.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { createLoginFlowTestApp, DESKTOP_USER_AGENT, loggedIn, PASSWORD, poll, startFlow } from "./support.js";

/** Issue 13: the browser half of Login Flow v2 (login, then Grant access or Cancel). */
describe("Login Flow v2 pages", () => {
  let t: TestApp;
  before(async () => {
    t = await createLoginFlowTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());

  it("a visitor who is not logged in gets the login form naming the application, then the grant page", async () => {
    const flow = await startFlow(t.app);
    const browser = new FormClient(t.app);
    const first = await browser.get(flow.loginPath);
    assert.equal(first.statusCode, 303);
    const loginUrl = String(first.headers.location);
    assert.equal(loginUrl, `/index.php/login?redirect_url=${encodeURIComponent(flow.loginPath)}`);
    const loginPage = await browser.get(loginUrl);
    assert.match(loginPage.body, /“workstation \(Desktop Client - Linux\)” wants to connect to your account/);
    const loggedInResponse = await browser.login("alice", PASSWORD, flow.loginPath);
    assert.equal(loggedInResponse.statusCode, 303);
    assert.equal(loggedInResponse.headers.location, flow.loginPath, "back to the flow after login");
    const grantPage = await browser.get(flow.loginPath);
    assert.equal(grantPage.statusCode, 200);
    assert.match(
      grantPage.body,
      /<form method="post" action="\/index\.php\/login\/v2\/flow\/[A-Za-z0-9]{128}\/grant" id="login-flow-grant">/,
    );
    assert.match(
      grantPage.body,
      /<form method="post" action="\/index\.php\/login\/v2\/flow\/[A-Za-z0-9]{128}\/cancel" id="login-flow-cancel">/,
    );
    assert.match(grantPage.body, /Grant access<\/button>/);
    assert.match(grantPage.body, /Cancel<\/button>/);
    assert.equal(grantPage.headers["x-frame-options"], "DENY", "sent through sendPage: no framing of the grant page");
  });

  it("the application's name is shown as its own claim, cut to 64 characters, with the address and time Keystream saw the flow start from", async () => {
    t.clock.advance(90);
    const startedAt = t.clock.nowSeconds();
    const claimed = `Keystream Security Team: mandatory re-verification, press Grant access. ${"Lorem ipsum ".repeat(30)}`.slice(
      0,
      255,
    );
    assert.equal(claimed.length, 255);
    const flow = await startFlow(t.app, "2001:db8:42::7", claimed);
    const shown = `${claimed.slice(0, 63).trimEnd()}…`;
    const browser = new FormClient(t.app);
    const loginPage = await browser.get(String((await browser.get(flow.loginPath)).headers.location));
    assert.ok(loginPage.body.includes(`An application that calls itself “${shown}” wants to connect to your account.`));
    assert.ok(!loginPage.body.includes(claimed.slice(0, 64)), "not one character more than 63 of the claim");
    await browser.login("alice", PASSWORD, flow.loginPath);
    t.clock.advance(120);
    const page = await browser.get(flow.loginPath);
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes(claimed.slice(0, 64)));
    assert.match(page.body, /<dt>Name reported by the application<\/dt><dd id="login-flow-name"><strong>([^<]*)<\/strong><\/dd>/);
    assert.equal(/<dd id="login-flow-name"><strong>([^<]*)<\/strong>/.exec(page.body)?.[1], shown);
    assert.match(
      page.body,
      /<p class="muted" id="login-flow-claim">The name is the application’s own description of itself: Keystream cannot check it\./,
    );
    assert.match(page.body, /<dt>Started from the address<\/dt><dd id="login-flow-address">2001:db8:42::7<\/dd>/);
    const dates = dateFormatterFor("en", null);
    const started = `<time datetime="${new Date(startedAt * 1000).toISOString()}">${dates.dateTime(startedAt)}</time> (2 minutes ago)`;
    assert.ok(page.body.includes(`<dd id="login-flow-started">${started}</dd>`), started);
    await browser.post(`${flow.loginPath}/grant`, { requesttoken: requestTokenOf(page.body) });
    assert.ok(
      (await t.services.appPasswords.list("alice")).some((p) => p.name === shown),
      "the app password has the name shown",
    );
  });

  it("the grant page says the same in the reader's language", async () => {
    const flow = await startFlow(t.app, "192.0.2.44");
    const browser = await loggedIn(t.app);
    const page = await browser.get(flow.loginPath, { "accept-language": "de" });
    assert.match(
      page.body,
      /<dt>Name, wie die Anwendung ihn angibt<\/dt><dd id="login-flow-name"><strong>workstation \(Desktop Client - Linux\)<\/strong>/,
    );
    assert.match(page.body, /<dt>Gestartet von der Adresse<\/dt><dd id="login-flow-address">192\.0\.2\.44<\/dd>/);
    assert.match(page.body, /Den Namen gibt die Anwendung selbst an: Keystream kann ihn nicht prüfen\./);
  });

  it("Grant access without the session's requesttoken is refused (403) and the flow stays pending", async () => {
    const flow = await startFlow(t.app);
    const browser = await loggedIn(t.app);
    for (const form of [{}, { requesttoken: "forged" }] as Record<string, string>[]) {
      const refused = await browser.post(`${flow.loginPath}/grant`, form);
      assert.equal(refused.statusCode, 403, JSON.stringify(form));
    }
    assert.deepEqual(
      (await t.services.appPasswords.list("alice")).filter((p) => p.name === DESKTOP_USER_AGENT),
      [],
      "no app password was created",
    );
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
    assert.equal((await browser.get(flow.loginPath)).statusCode, 200, "still pending");
  });

  it("Cancel without the session's requesttoken is refused (403) and the flow can still be granted", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "csrf-cancel");
    const browser = await loggedIn(t.app);
    const refused = await browser.post(`${flow.loginPath}/cancel`, { requesttoken: "forged" });
    assert.equal(refused.statusCode, 403);
    const page = await browser.get(flow.loginPath);
    assert.equal(page.statusCode, 200, "still pending");
    await browser.post(`${flow.loginPath}/grant`, { requesttoken: requestTokenOf(page.body) });
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 200);
  });

  it("another user's requesttoken does not grant in this user's session", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "cross-session");
    const alice = await loggedIn(t.app);
    const bob = await loggedIn(t.app, "bob", "bob password");
    const bobsToken = requestTokenOf((await bob.get("/index.php/settings/personal")).body);
    assert.equal((await alice.post(`${flow.loginPath}/grant`, { requesttoken: bobsToken })).statusCode, 403);
    assert.equal((await poll(t.app, flow.pollToken)).statusCode, 404);
  });

  it("the app password goes to the account that granted, named on the page", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "bobs-phone");
    const bob = await loggedIn(t.app, "bob", "bob password");
    const page = await bob.get(flow.loginPath);
    assert.match(page.body, /You are logged in as <strong>bob<\/strong>/);
    await bob.post(`${flow.loginPath}/grant`, { requesttoken: requestTokenOf(page.body) });
    assert.equal((await poll(t.app, flow.pollToken)).json().loginName, "bob");
    assert.deepEqual(
      (await t.services.appPasswords.list("bob")).map((p) => p.name),
      ["bobs-phone"],
    );
  });

  it("a grant or cancel without a session goes to the login page and back to the flow, changing nothing", async () => {
    const flow = await startFlow(t.app);
    for (const action of ["grant", "cancel"]) {
      const response = await new FormClient(t.app).post(`${flow.loginPath}/${action}`, { requesttoken: "x" });
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, `/index.php/login?redirect_url=${encodeURIComponent(flow.loginPath)}`);
    }
    assert.equal((await (await loggedIn(t.app)).get(flow.loginPath)).statusCode, 200, "still pending");
  });

  it("a login link that names no flow is not valid (404), logged in or not", async () => {
    const unknown = `/index.php/login/v2/flow/${"A".repeat(128)}`;
    const anonymous = await new FormClient(t.app).get(unknown);
    assert.equal(anonymous.statusCode, 404);
    assert.match(anonymous.body, /This login link is not valid/);
    assert.equal((await (await loggedIn(t.app)).get(unknown)).statusCode, 404);
  });

  it("a granted flow's page can be used once: a second grant is refused", async () => {
    const flow = await startFlow(t.app, "127.0.0.1", "twice");
    const browser = await loggedIn(t.app);
    const page = await browser.get(flow.loginPath);
    const token = requestTokenOf(page.body);
    assert.equal((await browser.post(`${flow.loginPath}/grant`, { requesttoken: token })).statusCode, 200);
    assert.equal((await browser.post(`${flow.loginPath}/grant`, { requesttoken: token })).statusCode, 404);
    assert.equal((await t.services.appPasswords.list("alice")).filter((p) => p.name === "twice").length, 1);
  });
});
