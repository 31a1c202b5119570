import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

describe("login form (/index.php/login)", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "correct horse", displayName: "Alice A" }));
  });
  after(() => t.close());

  it("logs in with the right password and reaches the personal page", async () => {
    const browser = new FormClient(t.app);
    const response = await browser.login("alice", "correct horse");
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, "/index.php/settings/personal");
    const page = await browser.get("/index.php/settings/personal");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="profile-display-name">Alice A</);
  });

  it("shows the form again with a clear message on a wrong password, and stays logged out", async () => {
    const browser = new FormClient(t.app);
    const response = await browser.login("alice", "wrong password");
    assert.equal(response.statusCode, 401);
    assert.match(response.body, /Wrong username or password\./);
    assert.match(response.body, /value="alice"/, "the user name is kept in the form");
    const page = await browser.get("/index.php/settings/personal");
    assert.equal(page.statusCode, 303);
    assert.match(String(page.headers.location), /^\/index\.php\/login\?redirect_url=/);
  });

  it("refuses a login POST without the form's CSRF token", async () => {
    const browser = new FormClient(t.app);
    await browser.get("/index.php/login");
    const response = await browser.post("/index.php/login", { user: "alice", password: "correct horse", requesttoken: "forged" });
    assert.equal(response.statusCode, 403);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303);
  });

  it("honours redirect_url only for same-origin relative targets", async () => {
    const local = new FormClient(t.app);
    const ok = await local.login("alice", "correct horse", "/index.php/settings/personal?x=1");
    assert.equal(ok.headers.location, "/index.php/settings/personal?x=1");
    for (const hostile of ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const browser = new FormClient(t.app);
      const response = await browser.login("alice", "correct horse", hostile);
      assert.equal(response.headers.location, "/index.php/settings/personal", `refused ${hostile}`);
    }
  });

  it("a redirect_url that a browser would resolve to another host (dot segments) is refused, logged in or not", async () => {
    const hostile = ["/.//evil.example", "/..//evil.example/path", "/%2e//evil.example", "/\t/evil.example"];
    const browser = new FormClient(t.app);
    for (const target of hostile) {
      const response = await new FormClient(t.app).login("alice", "correct horse", target);
      assert.equal(response.headers.location, "/index.php/settings/personal", `POST refused ${target}`);
    }
    await browser.login("alice", "correct horse");
    for (const target of hostile) {
      // Already logged in: the GET redirects at once (security review #1 observed `Location: //evil.example`).
      const response = await browser.get(`/index.php/login?redirect_url=${encodeURIComponent(target)}`);
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, "/index.php/settings/personal", `GET refused ${target}`);
    }
    // The target sent is the normalised one that was checked.
    const dotted = await browser.get(
      `/index.php/login?redirect_url=${encodeURIComponent("/index.php/./settings/../settings/personal?x=1")}`,
    );
    assert.equal(dotted.headers.location, "/index.php/settings/personal?x=1");
  });

  it("the login form carries only a checked, normalised redirect_url, and logout passes on only a same-origin one", async () => {
    const form = await t.app.inject({
      method: "GET",
      url: `/index.php/login?redirect_url=${encodeURIComponent("/.//evil.example")}`,
    });
    assert.equal(form.statusCode, 200);
    assert.doesNotMatch(form.body, /name="redirect_url"/);
    const kept = await t.app.inject({
      method: "GET",
      url: `/index.php/login?redirect_url=${encodeURIComponent("/a/../index.php/x")}`,
    });
    assert.match(kept.body, /name="redirect_url" value="\/index\.php\/x"/);
    const logout = await t.app.inject({
      method: "GET",
      url: `/index.php/logout?redirect_url=${encodeURIComponent("/..//evil.example")}`,
    });
    assert.equal(logout.headers.location, "/index.php/login");
  });

  it("issues the session at login, not before (no session fixation)", async () => {
    const browser = new FormClient(t.app);
    await browser.get("/index.php/login");
    assert.doesNotMatch(browser.cookieHeader, /ks_session=/);
    await browser.login("alice", "correct horse");
    assert.match(browser.cookieHeader, /ks_session=/);
  });

  it("sets HttpOnly and SameSite=Lax on the session cookie", async () => {
    const browser = new FormClient(t.app);
    const response = await browser.login("alice", "correct horse");
    const header = response.headers["set-cookie"];
    const setCookie = (Array.isArray(header) ? header : [String(header)]).find((c) => c.startsWith("ks_session="));
    assert.match(String(setCookie), /HttpOnly/);
    assert.match(String(setCookie), /SameSite=Lax/);
  });

  it("delays the next attempt exponentially after failures, per user, and a success resets it", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    const browser = new FormClient(t.app, "192.0.2.7");
    t.sleeps.length = 0;
    for (let i = 0; i < 3; i++) await browser.login("carol", "nope");
    // no delay before the first attempt, then 200 ms, 400 ms (base 200 ms, doubling)
    assert.deepEqual(t.sleeps.slice(0, 2), [200, 400]);
    t.sleeps.length = 0;
    await browser.login("carol", "carol password");
    assert.deepEqual(t.sleeps, [800], "the successful attempt still waited its turn");
    t.sleeps.length = 0;
    await new FormClient(t.app, "192.0.2.8").login("carol", "carol password");
    assert.deepEqual(t.sleeps, [], "the user's count was reset by the success; a new IP owes nothing");
  });

  it("logs out with the CSRF token and ends the session", async () => {
    const browser = new FormClient(t.app);
    await browser.login("alice", "correct horse");
    const page = await browser.get("/index.php/settings/personal");
    const forged = await browser.post("/index.php/logout", { requesttoken: "forged" });
    assert.equal(forged.statusCode, 403);
    const response = await browser.post("/index.php/logout", { requesttoken: requestTokenOf(page.body) });
    assert.equal(response.statusCode, 303);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303);
  });

  it("refuses a disabled user even with the right password", async () => {
    accepted(await t.services.users.create({ uid: "dave", password: "dave password" }));
    accepted(await t.services.users.setEnabled("dave", false));
    const response = await new FormClient(t.app).login("dave", "dave password");
    assert.equal(response.statusCode, 403);
    assert.match(response.body, /disabled/);
  });
});
