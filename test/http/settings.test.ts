import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

function newSecretOf(page: string): string {
  const match = /id="new-app-password"[\s\S]*?<code class="secret"[^>]*>([A-Za-z0-9]+)<\/code>/.exec(page);
  if (!match?.[1]) throw new Error("no new app password on the page");
  return match[1];
}

function appPasswordRows(page: string): string[] {
  const table = /<table class="responsive" id="app-password-list">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? "";
  return [...table.matchAll(/<tr><td data-label="Name">([^<]*)<\/td>/g)].map((m) => m[1] ?? "");
}

describe("settings pages", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password", displayName: "Alice A" }));
    accepted(await t.services.users.create({ uid: "root", password: "root password", isAdmin: true }));
  });
  after(() => t.close());

  const loggedIn = async (uid: string, password: string) => {
    const browser = new FormClient(t.app);
    assert.equal((await browser.login(uid, password)).statusCode, 303);
    return browser;
  };

  it("sends a visitor without a session to the login page, keeping where they wanted to go", async () => {
    for (const path of ["/index.php/settings/personal", "/index.php/settings/admin"]) {
      const response = await new FormClient(t.app).get(path);
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, `/index.php/login?redirect_url=${encodeURIComponent(path)}`);
    }
  });

  it("a page is for browser sessions only: Basic credentials get the login page", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/index.php/settings/personal",
      headers: { authorization: basic("alice", "alice password") },
    });
    assert.equal(response.statusCode, 303);
  });

  it("admin settings: 403 for a user who is not an administrator, 200 for an administrator", async () => {
    const alice = await loggedIn("alice", "alice password");
    const refused = await alice.get("/index.php/settings/admin");
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /This page is for administrators/);
    assert.doesNotMatch(refused.body, /id="user-list"/);
    assert.doesNotMatch((await alice.get("/index.php/settings/personal")).body, /Administration<\/a>/);

    const root = await loggedIn("root", "root password");
    const landing = await root.get("/index.php/settings/admin");
    assert.equal(landing.statusCode, 303);
    assert.equal(landing.headers.location, "/index.php/settings/admin/users");
    const page = await root.get("/index.php/settings/admin/users");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Users<\/h1>/);
    assert.match(
      page.body,
      /<td data-label="Username" class="wrap-anywhere"><a href="\/index\.php\/settings\/admin\/users\/alice">alice<\/a><\/td><td data-label="Full name" class="wrap-anywhere">Alice A<\/td>/,
    );
    assert.match((await root.get("/index.php/settings/personal")).body, /Administration<\/a>/);
  });

  it("the administration console: each area is its own page, reached from the area navigation", async () => {
    const root = await loggedIn("root", "root password");
    const page = await root.get("/index.php/settings/admin/applications");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>Applications – Administration settings/);
    assert.match(page.body, /<a href="\/index\.php\/settings\/admin\/applications" aria-current="page">Applications<\/a>/);
    assert.match(page.body, /<a href="\/index\.php\/settings\/admin\/users">Users<\/a>/);
    assert.doesNotMatch(page.body, /id="user-list"/, "the users area is on its own page");
    const alice = await loggedIn("alice", "alice password");
    assert.equal((await alice.get("/index.php/settings/admin/security")).statusCode, 403);
  });

  it("pages carry the security headers", async () => {
    const alice = await loggedIn("alice", "alice password");
    const page = await alice.get("/index.php/settings/personal");
    assert.equal(page.headers["x-frame-options"], "DENY");
    assert.equal(page.headers["cache-control"], "no-store");
    assert.match(String(page.headers["content-security-policy"]), /frame-ancestors 'none'/);
  });

  it("app passwords: create shows the secret once, it works for Basic, it is listed, and revoke ends it", async () => {
    const browser = await loggedIn("alice", "alice password");
    const page = await browser.get("/index.php/settings/personal");
    assert.equal(page.statusCode, 200);
    assert.deepEqual(appPasswordRows(page.body), []);
    const token = requestTokenOf(page.body);

    // Post/redirect/get: the form answers 303 and the page it leads to shows the secret.
    const posted = await browser.post("/index.php/settings/personal/app-passwords", { requesttoken: token, name: "My <Phone>" });
    assert.equal(posted.statusCode, 303);
    const created = await browser.get(String(posted.headers.location));
    assert.equal(created.statusCode, 200);
    const secret = newSecretOf(created.body);
    assert.match(secret, /^[A-Za-z0-9]{72}$/);
    assert.deepEqual(appPasswordRows(created.body), ["My &lt;Phone&gt;"], "listed, and its name escaped");

    // Shown once: the next page view has the name but not the secret.
    const again = await browser.get("/index.php/settings/personal");
    assert.ok(!again.body.includes(secret));
    assert.deepEqual(appPasswordRows(again.body), ["My &lt;Phone&gt;"]);

    // Stored hashed, never in plain.
    const rows = await t.testStorage.storage.db.selectFrom("app_passwords").selectAll().where("uid", "=", "alice").execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.token_hash, sha256Hex(secret));
    assert.ok(!JSON.stringify(rows).includes(secret));

    const whoami = () =>
      t.app.inject({
        method: "GET",
        url: "/ocs/v2.php/cloud/user?format=json",
        headers: { authorization: basic("alice", secret) },
      });
    const ok = await whoami();
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().ocs.data.id, "alice");

    const id = rows[0]?.id;
    const revoked = await browser.post(`/index.php/settings/personal/app-passwords/${id}/revoke`, { requesttoken: token });
    assert.equal(revoked.statusCode, 200);
    assert.match(revoked.body, /The app password was revoked/);
    assert.deepEqual(appPasswordRows(revoked.body), []);
    assert.equal((await whoami()).statusCode, 401);
  });

  it("app password forms are refused without the CSRF token, and change nothing", async () => {
    const browser = await loggedIn("alice", "alice password");
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("alice", "kept"));
    const count = async () => (await t.services.appPasswords.list("alice")).length;
    const before = await count();
    const forgedCreate = await browser.post("/index.php/settings/personal/app-passwords", { requesttoken: "forged", name: "x" });
    assert.equal(forgedCreate.statusCode, 403);
    assert.doesNotMatch(forgedCreate.body, /class="secret"/);
    const missingCreate = await browser.post("/index.php/settings/personal/app-passwords", { name: "x" });
    assert.equal(missingCreate.statusCode, 403);
    const forgedRevoke = await browser.post(`/index.php/settings/personal/app-passwords/${appPassword.id}/revoke`, {
      requesttoken: "forged",
    });
    assert.equal(forgedRevoke.statusCode, 403);
    assert.equal(await count(), before);
    assert.ok(await t.services.appPasswords.resolve(secret));
  });

  it("a user cannot revoke someone else's app password", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("root", "root's device"));
    const browser = await loggedIn("alice", "alice password");
    const token = requestTokenOf((await browser.get("/index.php/settings/personal")).body);
    const response = await browser.post(`/index.php/settings/personal/app-passwords/${appPassword.id}/revoke`, {
      requesttoken: token,
    });
    assert.equal(response.statusCode, 404);
    assert.match(response.body, /No such app password/);
    assert.ok(await t.services.appPasswords.resolve(secret));
  });

  it("an empty app password name is refused with a message and nothing is created", async () => {
    const browser = await loggedIn("alice", "alice password");
    const token = requestTokenOf((await browser.get("/index.php/settings/personal")).body);
    const before = (await t.services.appPasswords.list("alice")).length;
    const response = await browser.post("/index.php/settings/personal/app-passwords", { requesttoken: token, name: "  " });
    assert.equal(response.statusCode, 400);
    assert.match(response.body, /class="error"/);
    assert.equal((await t.services.appPasswords.list("alice")).length, before);
  });
});
