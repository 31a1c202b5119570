import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const ADMIN = "/index.php/settings/admin/users";
const USERS = "/index.php/settings/users";

describe("admin page: users", () => {
  let t: TestApp;
  let root: FormClient;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "root", password: "root password", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    root = new FormClient(t.app);
    assert.equal((await root.login("root", "root password")).statusCode, 303);
  });
  after(() => t.close());

  const rootToken = async () => requestTokenOf((await root.get(ADMIN)).body);
  const loggedIn = async (uid: string, password: string) => {
    const browser = new FormClient(t.app);
    assert.equal((await browser.login(uid, password)).statusCode, 303);
    return browser;
  };

  it("an administrator creates a user, who can then log in", async () => {
    const response = await root.post(USERS, {
      requesttoken: await rootToken(),
      uid: "bob",
      display_name: "Bob B",
      email: "bob@example.com",
      password: "bob password",
    });
    assert.equal(response.statusCode, 303, "post/redirect/get");
    assert.equal(response.headers.location, `${ADMIN}#users`);
    assert.match((await root.get(ADMIN)).body, /id="users-notice" role="status">The user bob was created\./);
    const bob = accepted(await t.services.users.require("bob"));
    assert.equal(bob.displayName, "Bob B");
    assert.equal(bob.isAdmin, false);
    await loggedIn("bob", "bob password");
    const taken = await root.post(USERS, { requesttoken: await rootToken(), uid: "bob", password: "other password" });
    assert.equal(taken.statusCode, 400);
    assert.match(taken.body, /already exists/);
  });

  it("a refused new user comes back with the form as sent, except the password", async () => {
    const refused = await root.post(USERS, {
      requesttoken: await rootToken(),
      uid: "carol",
      display_name: "Carol C",
      email: "not an address",
      password: "carol password",
      is_admin: "1",
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /id="users-error">/);
    assert.match(refused.body, /id="new-user-uid" name="uid" maxlength="64" required value="carol"/);
    assert.match(refused.body, /id="new-user-display-name" name="display_name" maxlength="255" value="Carol C"/);
    assert.match(refused.body, /id="new-user-email" name="email" maxlength="255" value="not an address"/);
    assert.match(refused.body, /name="is_admin" value="1" checked/);
    assert.ok(!refused.body.includes("carol password"), "the password is never sent back");
    assert.equal(await t.services.users.find("carol"), undefined);
  });

  it("a deleted user's name is refused on the admin page, which points at occ for an intended reuse; the form comes back", async () => {
    accepted(await t.services.users.create({ uid: "eve", email: "eve.first@example.com" }));
    accepted(await t.services.users.delete("eve"));
    const refused = await root.post(USERS, {
      requesttoken: await rootToken(),
      uid: "eve",
      display_name: "Eve Second",
      email: "eve.second@example.com",
      password: "eve password",
    });
    assert.equal(refused.statusCode, 400);
    assert.match(
      refused.body,
      /id="users-error">the user name &quot;eve&quot; belonged to a deleted account: the applications that account signed in to would take a new account of that name for it\. To give the name to a new account on purpose: \.\/occ user:add --reuse-deleted-name &quot;eve&quot;<\/p>/,
    );
    assert.match(refused.body, /id="new-user-uid" name="uid" maxlength="64" required value="eve"/);
    assert.equal(await t.services.users.find("eve"), undefined, "no account was made");
    const german = await root.post(
      USERS,
      { requesttoken: await rootToken(), uid: "eve", password: "eve password" },
      { "accept-language": "de" },
    );
    assert.equal(german.statusCode, 400);
    assert.match(german.body, /Der Benutzername „eve“ gehörte einem gelöschten Konto/);
  });

  it("an address another account has is refused on the admin page, whatever its case", async () => {
    accepted(await t.services.users.create({ uid: "dora", email: "dora@example.com" }));
    const refused = await root.post(USERS, {
      requesttoken: await rootToken(),
      uid: "dora2",
      email: "DORA@example.com",
      password: "dora password",
    });
    assert.equal(refused.statusCode, 400);
    assert.match(
      refused.body,
      /id="users-error">the email address &quot;DORA@example\.com&quot; is already used by another account</,
    );
    assert.equal(await t.services.users.find("dora2"), undefined);
  });

  it("disabling a user ends their sessions; enabling lets them log in again", async () => {
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    const carol = await loggedIn("carol", "carol password");
    const disabled = await root.post(`${USERS}/carol/disable`, { requesttoken: await rootToken() });
    assert.equal(disabled.statusCode, 303);
    assert.equal(accepted(await t.services.users.require("carol")).enabled, false);
    assert.equal((await carol.get("/index.php/settings/personal")).statusCode, 303, "signed out");
    const enabled = await root.post(`${USERS}/carol/enable`, { requesttoken: await rootToken() });
    assert.equal(enabled.statusCode, 303);
    await loggedIn("carol", "carol password");
  });

  it("an administrator deletes a user", async () => {
    accepted(await t.services.users.create({ uid: "dave", password: "dave password" }));
    const response = await root.post(`${USERS}/dave/delete`, { requesttoken: await rootToken() });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, `${ADMIN}#users`, "back to the users area: the user's page is gone");
    assert.equal(await t.services.users.find("dave"), undefined);
    const again = await root.post(`${USERS}/dave/delete`, { requesttoken: await rootToken() });
    assert.equal(again.statusCode, 404);
  });

  it("an administrator cannot disable or delete their own account on the page", async () => {
    for (const verb of ["disable", "delete"]) {
      const response = await root.post(`${USERS}/root/${verb}`, { requesttoken: await rootToken() });
      assert.equal(response.statusCode, 400, verb);
    }
    const self = accepted(await t.services.users.require("root"));
    assert.equal(self.enabled, true);
  });

  it("a password reset by an administrator sets the password and ends the user's browser sessions", async () => {
    accepted(await t.services.users.create({ uid: "erin", password: "erin password" }));
    const erin = await loggedIn("erin", "erin password");
    const response = await root.post(`${USERS}/erin/password`, { requesttoken: await rootToken(), password: "reset password" });
    assert.equal(response.statusCode, 303);
    assert.ok(await t.services.users.checkPassword("erin", "reset password"));
    assert.equal((await erin.get("/index.php/settings/personal")).statusCode, 303, "signed out");
    const tooShort = await root.post(`${USERS}/erin/password`, { requesttoken: await rootToken(), password: "short" });
    assert.equal(tooShort.statusCode, 400);
  });

  it("user administration forms are refused without the CSRF token and change nothing", async () => {
    const forged = [
      root.post(USERS, { requesttoken: "forged", uid: "mallory", password: "mallory password" }),
      root.post(`${USERS}/alice/disable`, { requesttoken: "forged" }),
      root.post(`${USERS}/alice/delete`, { requesttoken: "forged" }),
      root.post(`${USERS}/alice/password`, { requesttoken: "forged", password: "taken over" }),
    ];
    for (const response of await Promise.all(forged)) assert.equal(response.statusCode, 403);
    assert.equal(await t.services.users.find("mallory"), undefined);
    const alice = accepted(await t.services.users.require("alice"));
    assert.equal(alice.enabled, true);
    assert.ok(await t.services.users.checkPassword("alice", "alice password"));
  });

  it("user administration is for administrators: a user who is not one gets 403 and changes nothing", async () => {
    accepted(await t.services.users.create({ uid: "frank", password: "frank password" }));
    const frank = await loggedIn("frank", "frank password");
    const token = requestTokenOf((await frank.get("/index.php/settings/personal")).body);
    const attempts = [
      frank.post(USERS, { requesttoken: token, uid: "mallory", password: "mallory password", is_admin: "1" }),
      frank.post(`${USERS}/alice/disable`, { requesttoken: token }),
      frank.post(`${USERS}/alice/delete`, { requesttoken: token }),
      frank.post(`${USERS}/alice/password`, { requesttoken: token, password: "taken over" }),
    ];
    for (const response of await Promise.all(attempts)) assert.equal(response.statusCode, 403);
    assert.equal(await t.services.users.find("mallory"), undefined);
    assert.equal(accepted(await t.services.users.require("alice")).enabled, true);
    assert.ok(await t.services.users.checkPassword("alice", "alice password"));
  });
});
