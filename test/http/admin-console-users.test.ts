import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { USERS_PER_PAGE } from "../../src/http/console/controllers/admin-users.js";
import {
  basic,
  exchangeCode,
  issueCode,
  loggedIn,
  oauthAppWithLoggedInAdmin,
  PASSWORD,
  refresh,
  userinfo,
} from "../oauth/support.js";
import { requestTokenOf } from "../support/browser-form.js";
import { accepted, assertRefused } from "../support/results.js";

const AREA = "/index.php/settings/admin/users";
const FORMS = "/index.php/settings/users";

/** The uids of the users table's rows, in order. */
function listedUids(body: string): string[] {
  const table = /<table class="responsive" id="user-list">([\s\S]*?)<\/table>/.exec(body)?.[1] ?? "";
  return [...table.matchAll(/<tr><td data-label="[^"]*" class="wrap-anywhere"><a href="[^"]+">([^<]+)<\/a>/g)].map(
    (m) => m[1] ?? "",
  );
}

describe("administration console: the users area and a user's page", () => {
  const s = oauthAppWithLoggedInAdmin();
  const token = async () => requestTokenOf((await s.admin.get(AREA)).body);

  it("the users area searches uid, full name and address (any case, wildcards taken literally) and pages by 50, never listing every user", async () => {
    const { users } = s.t.services;
    for (let i = 0; i < USERS_PER_PAGE + 5; i++) {
      const n = String(i).padStart(3, "0");
      accepted(await users.create({ uid: `member${n}`, displayName: `Member ${n}`, email: `m${n}@crowd.example` }));
    }
    accepted(await users.create({ uid: "zed", displayName: "Zed 100%_Sure", email: "Zed.Person@Example.org" }));
    const first = await s.admin.get(AREA);
    assert.equal(first.statusCode, 200);
    assert.equal(listedUids(first.body).length, USERS_PER_PAGE);
    const total = USERS_PER_PAGE + 5 + 3; // alice, root, zed
    assert.match(first.body, new RegExp(`Users 1–${USERS_PER_PAGE} of ${total}`));
    assert.match(first.body, /<a rel="next" href="\/index\.php\/settings\/admin\/users\?page=2">/);
    const second = await s.admin.get(`${AREA}?page=2`);
    assert.deepEqual(listedUids(second.body), [
      "member049",
      "member050",
      "member051",
      "member052",
      "member053",
      "member054",
      "root",
      "zed",
    ]);
    assert.match(second.body, /<a rel="prev" href="\/index\.php\/settings\/admin\/users">/);

    const crowd = await s.admin.get(`${AREA}?q=CROWD.example&page=2`);
    assert.deepEqual(
      listedUids(crowd.body),
      ["member050", "member051", "member052", "member053", "member054"],
      "by address, any case",
    );
    assert.match(crowd.body, /<a rel="prev" href="\/index\.php\/settings\/admin\/users\?q=CROWD\.example">/);
    assert.deepEqual(listedUids((await s.admin.get(`${AREA}?q=liddell`)).body), ["alice"], "by full name");
    assert.deepEqual(listedUids((await s.admin.get(`${AREA}?q=member05`)).body).length, 5, "by uid");
    assert.deepEqual(listedUids((await s.admin.get(`${AREA}?q=${encodeURIComponent("100%_")}`)).body), ["zed"]);
    assert.deepEqual(listedUids((await s.admin.get(`${AREA}?q=${encodeURIComponent("1%0")}`)).body), [], "% is no wildcard");
    const none = await s.admin.get(`${AREA}?q=nobody`);
    assert.match(none.body, /No user matches “nobody”\./);
    assert.match(none.body, /id="user-search" name="q" maxlength="255" value="nobody"/, "the search stays in the box");

    const page = await users.search({ text: "member", limit: 10, offset: 50 });
    assert.equal(page.total, USERS_PER_PAGE + 5);
    assert.equal(page.users.length, 5);
  });

  it("the users table shows state, role, last sign-in and second factors; the last sign-in is recorded by a browser login and an app password's use", async () => {
    const { users, appPasswords } = s.t.services;
    const { clock } = s.t;
    accepted(await users.create({ uid: "lena", password: PASSWORD, displayName: "Lena" }));
    assert.equal(accepted(await users.requireListing("lena")).lastLoginAt, null);
    const row = async () =>
      /<tr><td[^>]*><a href="\/index\.php\/settings\/admin\/users\/lena">[\s\S]*?<\/tr>/.exec(
        (await s.admin.get(`${AREA}?q=lena`)).body,
      )?.[0] ?? "";
    assert.match(await row(), /Last sign-in">never</);
    await loggedIn(s.t, "lena", PASSWORD);
    const loginAt = accepted(await users.requireListing("lena")).lastLoginAt;
    assert.equal(loginAt, clock.nowSeconds());
    assert.doesNotMatch(await row(), /Last sign-in">never</);
    assert.match(await row(), /State">enabled</);
    clock.advance(3600);
    const { secret } = accepted(await appPasswords.create("lena", "laptop"));
    const dav = await s.t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      headers: { authorization: basic("lena", secret), "ocs-apirequest": "true" },
    });
    assert.equal(dav.statusCode, 200, dav.body);
    assert.equal(accepted(await users.requireListing("lena")).lastLoginAt, clock.nowSeconds());
    accepted(await users.setEnabled("lena", false));
    assert.match(await row(), /State">disabled</);
  });

  it("an application refreshing its tokens is not a sign-in: the last sign-in stays at the browser login", async () => {
    const { t } = s;
    const tokens = (await exchangeCode(t, await issueCode(t))).json() as { refresh_token: string };
    const signedIn = accepted(await t.services.users.requireListing("alice")).lastLoginAt;
    assert.equal(signedIn, t.clock.nowSeconds());
    t.clock.advance(7200);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
    assert.equal(accepted(await t.services.users.requireListing("alice")).lastLoginAt, signedIn);
  });

  it("an administrator changes another user's full name and address on the user's page: 303 back to it, the notice at the top once, the address unverified", async () => {
    accepted(await s.t.services.users.create({ uid: "nina", displayName: "Nina", email: "nina@example.com" }));
    accepted(await s.t.services.users.updateProfile("nina", { emailVerified: true }));
    const saved = await s.admin.post(`${FORMS}/nina/profile`, {
      requesttoken: await token(),
      display_name: "Nina Simone",
      email: "nina@music.example",
    });
    assert.equal(saved.statusCode, 303);
    assert.equal(saved.headers.location, `${AREA}/nina#user-notice`);
    const nina = accepted(await s.t.services.users.require("nina"));
    assert.equal(nina.displayName, "Nina Simone");
    assert.equal(nina.email, "nina@music.example");
    assert.equal(nina.emailVerified, false, "a changed address is unverified, as with occ user:modify");
    const page = await s.admin.get(`${AREA}/nina`);
    assert.match(
      page.body,
      /<h1>User nina<\/h1><p><a href="\/index\.php\/settings\/admin\/users">← All users<\/a><\/p>\n<p class="notice" id="user-notice" role="status">The full name and email address of nina were saved\.<\/p>/,
    );
    const reload = await s.admin.get(`${AREA}/nina`);
    assert.doesNotMatch(reload.body, /id="user-notice"/, "a reload shows the notice no more and repeats nothing");
  });

  it("a refused name or address is shown at the top of the user's page with the form as sent, and nothing is written", async () => {
    accepted(await s.t.services.users.create({ uid: "olga", displayName: "Olga", email: "olga@example.com" }));
    const badEmail = await s.admin.post(`${FORMS}/olga/profile`, {
      requesttoken: await token(),
      display_name: "Olga K",
      email: "not an address",
    });
    assert.equal(badEmail.statusCode, 400);
    assert.match(badEmail.body, /<p class="error" id="user-error" role="alert">/);
    assert.match(badEmail.body, /id="user-display-name" name="display_name" maxlength="255" required value="Olga K"/);
    assert.match(badEmail.body, /id="user-email" name="email" maxlength="255" value="not an address"/);
    const taken = await s.admin.post(`${FORMS}/olga/profile`, {
      requesttoken: await token(),
      display_name: "Olga",
      email: "ALICE@example.com",
    });
    assert.equal(taken.statusCode, 400);
    assert.match(taken.body, /already used by another account/);
    const blank = await s.admin.post(`${FORMS}/olga/profile`, {
      requesttoken: await token(),
      display_name: "  ",
      email: "olga@example.com",
    });
    assert.equal(blank.statusCode, 400);
    const olga = accepted(await s.t.services.users.require("olga"));
    assert.deepEqual([olga.displayName, olga.email], ["Olga", "olga@example.com"]);
    const german = await s.admin.post(
      `${FORMS}/olga/profile`,
      { requesttoken: await token(), display_name: "Olga", email: "kaputt" },
      { "accept-language": "de" },
    );
    assert.match(german.body, /lang="de"/);
    const unknown = await s.admin.post(`${FORMS}/nobody/profile`, { requesttoken: await token(), display_name: "X", email: "" });
    assert.equal(unknown.statusCode, 404);
    assert.equal((await s.admin.get(`${AREA}/nobody`)).statusCode, 404);
  });

  it("ending all of a user's sessions and tokens refuses their browser session, bearer token, refresh token and app password at once; the account stays", async () => {
    const { t } = s;
    const browser = await loggedIn(t, "alice", PASSWORD);
    const tokens = (await exchangeCode(t, await issueCode(t))).json() as { access_token: string; refresh_token: string };
    const { secret } = accepted(await t.services.appPasswords.create("alice", "phone"));
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 200);
    const ended = await s.admin.post(`${FORMS}/alice/sign-out`, { requesttoken: await token() });
    assert.equal(ended.statusCode, 303);
    const notice = (await s.admin.get(`${AREA}/alice`)).body;
    assert.match(
      notice,
      /id="user-notice" role="status">Every sign-in of alice was ended \(browser sessions: \d+; app passwords and authorized applications: [2-9]\)\./,
    );
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303, "the browser session is over");
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 401, "the access token is refused");
    assert.equal((await refresh(t, tokens.refresh_token)).json().error, "invalid_grant");
    const app = await t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      headers: { authorization: basic("alice", secret), "ocs-apirequest": "true" },
    });
    assert.equal(app.statusCode, 401, "the app password is gone");
    assert.equal(accepted(await t.services.users.require("alice")).enabled, true);
    await loggedIn(t, "alice", PASSWORD);
    const self = await s.admin.post(`${FORMS}/root/sign-out`, { requesttoken: await token() });
    assert.equal(self.statusCode, 400, "not one's own, from the console");
  });

  it("every change on a user's page answers 303 (a reload of the page after it repeats nothing), refused without the CSRF token or for a non-administrator", async () => {
    const { users } = s.t.services;
    accepted(await users.create({ uid: "paul", password: PASSWORD }));
    const disabled = await s.admin.post(`${FORMS}/paul/disable`, { requesttoken: await token() });
    assert.equal(disabled.statusCode, 303);
    assert.equal(disabled.headers.location, `${AREA}/paul#user-notice`);
    const page = await s.admin.get(`${AREA}/paul`);
    assert.match(page.body, /The user paul was disabled and signed out\./);
    assert.match(page.body, /id="user-enable"/);
    assert.match(
      page.body,
      /<details class="confirm"><summary>Delete paul…<\/summary>[\s\S]*?id="user-delete"[\s\S]*?<\/details>/,
      "deleting is behind a disclosure",
    );
    const reset = await s.admin.post(`${FORMS}/paul/password`, { requesttoken: await token(), password: "another password" });
    assert.equal(reset.statusCode, 303);
    assert.equal((await s.admin.post(`${FORMS}/paul/sign-out`, { requesttoken: "forged" })).statusCode, 403);
    accepted(await users.setEnabled("paul", true));
    const paul = await loggedIn(s.t, "paul", "another password");
    const paulToken = requestTokenOf((await paul.get("/index.php/settings/personal")).body);
    assert.equal(
      (await paul.post(`${FORMS}/alice/profile`, { requesttoken: paulToken, display_name: "Taken", email: "" })).statusCode,
      403,
    );
    assert.equal((await paul.get(`${AREA}/alice`)).statusCode, 403);
    assert.notEqual(accepted(await users.require("alice")).displayName, "Taken");
  });

  it("an administrator promotes a user to administrator (membership of admin, shown in the groups column) and demotes them; never their own role, and the last administrator stays one", async () => {
    const { users, groups } = s.t.services;
    accepted(await users.create({ uid: "quinn", password: PASSWORD }));
    const quinn = await loggedIn(s.t, "quinn", PASSWORD);
    assert.equal((await quinn.get(AREA)).statusCode, 403);
    const promoted = await s.admin.post(`${FORMS}/quinn/promote`, { requesttoken: await token() });
    assert.equal(promoted.statusCode, 303);
    assert.deepEqual(await groups.groupsOf("quinn"), ["admin"]);
    assert.match((await s.admin.get(`${AREA}/quinn`)).body, /id="user-notice" role="status">quinn is now an administrator\./);
    assert.match((await s.admin.get(`${AREA}?q=quinn`)).body, /<td data-label="Groups" class="wrap-anywhere">admin<\/td>/);
    assert.equal((await quinn.get(AREA)).statusCode, 200, "at once, in the session quinn already had");
    const demoted = await s.admin.post(`${FORMS}/quinn/demote`, { requesttoken: await token() });
    assert.equal(demoted.statusCode, 303);
    assert.deepEqual(await groups.groupsOf("quinn"), []);
    assert.equal((await quinn.get(AREA)).statusCode, 403);
    assert.match((await s.admin.get(`${AREA}/quinn`)).body, /quinn is no longer an administrator\./);

    const own = await s.admin.post(`${FORMS}/root/demote`, { requesttoken: await token() });
    assert.equal(own.statusCode, 400);
    assert.match(own.body, /id="user-error" role="alert">you cannot remove your own administrator role here/);
    assert.deepEqual(await groups.groupsOf("root"), ["admin"]);
    // root is the only administrator: the group keeps its last member whoever asks.
    assert.match(assertRefused(await groups.removeMember("admin", "root"), "last_admin").message, /last administrator/);
    const ownDelete = await s.admin.post(`${FORMS}/root/delete`, { requesttoken: await token() });
    assert.equal(ownDelete.statusCode, 400);
    assert.ok(await users.find("root"));
  });
});
