import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const PERSONAL = "/index.php/settings/personal";

describe("personal settings: password, app passwords, language, profile", () => {
  let t: TestApp;
  let uidCounter = 0;
  let uid = "";
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());
  // Each test has its own user, so throttling counts and sessions do not leak between tests.
  beforeEach(async () => {
    uid = `user${++uidCounter}`;
    accepted(
      await t.services.users.create({ uid, password: "old password", displayName: "Old Name", email: `${uid}@example.com` }),
    );
    t.sleeps.length = 0;
  });

  // Each test's user signs in from an address of its own: the throttle counts per address too.
  const ip = () => `192.0.2.${uidCounter}`;
  const loggedIn = async (password = "old password") => {
    const browser = new FormClient(t.app, ip());
    assert.equal((await browser.login(uid, password)).statusCode, 303);
    return browser;
  };
  const tokenOf = async (browser: FormClient) => requestTokenOf((await browser.get(PERSONAL)).body);
  const changePassword = async (browser: FormClient, current: string, next: string) =>
    browser.post(`${PERSONAL}/password`, { requesttoken: await tokenOf(browser), current_password: current, new_password: next });

  it("a password change needs the current password: a wrong one is refused and the password stays", async () => {
    const browser = await loggedIn();
    const response = await changePassword(browser, "not my password", "new password 1");
    assert.equal(response.statusCode, 403);
    assert.match(response.body, /id="password-error">The current password is wrong\./);
    assert.ok(await t.services.users.checkPassword(uid, "old password"));
    assert.equal(await t.services.users.checkPassword(uid, "new password 1"), undefined);
  });

  it("a wrong current password counts as a failed login (the same throttle buckets as the login form)", async () => {
    const browser = await loggedIn();
    await changePassword(browser, "wrong 1", "new password 1");
    assert.deepEqual(t.sleeps, [], "the first failure owes nothing");
    await changePassword(browser, "wrong 2", "new password 1");
    assert.deepEqual(t.sleeps, [200], "the second attempt waited for the first failure");
    t.sleeps.length = 0;
    const other = new FormClient(t.app, ip());
    await other.login(uid, "wrong 3");
    assert.deepEqual(t.sleeps, [400], "the login form owes the delay of both failed password changes");
  });

  it("a password change ends the user's other browser sessions and keeps the current one", async () => {
    const current = await loggedIn();
    const otherBrowser = await loggedIn();
    const response = await changePassword(current, "old password", "new password 1");
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /id="password-changed"/);
    assert.equal((await current.get(PERSONAL)).statusCode, 200, "the browser that changed it stays logged in");
    assert.equal((await otherBrowser.get(PERSONAL)).statusCode, 303, "the other browser is sent to the login page");
    assert.ok(await t.services.users.checkPassword(uid, "new password 1"));
    assert.equal(await t.services.users.checkPassword(uid, "old password"), undefined);
  });

  it("a password change is refused without the CSRF token", async () => {
    const browser = await loggedIn();
    const response = await browser.post(`${PERSONAL}/password`, {
      requesttoken: "forged",
      current_password: "old password",
      new_password: "new password 1",
    });
    assert.equal(response.statusCode, 403);
    assert.ok(await t.services.users.checkPassword(uid, "old password"));
  });

  it("creating an app password is post/redirect/get: a reload of the page shows no secret and creates nothing", async () => {
    const browser = await loggedIn();
    const posted = await browser.post(`${PERSONAL}/app-passwords`, { requesttoken: await tokenOf(browser), name: "phone" });
    assert.equal(posted.statusCode, 303);
    assert.equal(posted.headers.location, `${PERSONAL}#app-passwords`);
    const shown = await browser.get(PERSONAL);
    const secret = /id="new-app-password-secret">([A-Za-z0-9]{72})</.exec(shown.body)?.[1];
    assert.ok(secret, "the new password is shown on the page the redirect leads to");
    assert.match(shown.body, /<button type="button" data-copy="new-app-password-secret"/, "with a copy button");
    const scriptPath = /<script src="(\/index\.php\/settings\/js\/copy-secret-[0-9a-f]{16}\.js)"><\/script>/.exec(
      shown.body,
    )?.[1];
    assert.ok(scriptPath, "the copy script, under its content-hashed name");
    assert.doesNotMatch(shown.body, /<script>/, "no inline script (CSP script-src 'self')");
    const reloaded = await browser.get(PERSONAL);
    assert.ok(!reloaded.body.includes(secret), "shown once");
    assert.equal((await t.services.appPasswords.list(uid)).length, 1, "the reload created nothing");
    const script = await browser.get(scriptPath);
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers["content-type"]), /^text\/javascript/);
    assert.match(script.body, /navigator\.clipboard\.writeText/);
  });

  it("a new app password is shown only to the browser session that created it", async () => {
    const browser = await loggedIn();
    await browser.post(`${PERSONAL}/app-passwords`, { requesttoken: await tokenOf(browser), name: "phone" });
    // Another session of the same user presenting the flash cookie (copied) sees nothing.
    const flash = /ks_settings_flash=([^;]+)/.exec(browser.cookieHeader)?.[1];
    assert.ok(flash);
    const other = await loggedIn();
    const page = await other.get(PERSONAL, { cookie: `${other.cookieHeader}; ks_settings_flash=${flash}` });
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /id="new-app-password"/);
  });

  it("the settings page is rendered in the user's own language even with another Accept-Language", async () => {
    const browser = await loggedIn();
    accepted(await t.services.preferences.set(uid, "core", "lang", "de"));
    const page = await browser.get(PERSONAL, { "accept-language": "fr-FR,fr;q=0.9" });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<html lang="de">/);
    assert.match(page.body, /<h1>Persönliche Einstellungen<\/h1>/);
    accepted(await t.services.preferences.delete(uid, "core", "lang"));
    const followed = await browser.get(PERSONAL, { "accept-language": "fr-FR,fr;q=0.9" });
    assert.match(followed.body, /<h1>Paramètres personnels<\/h1>/, "without a setting, the browser's language");
  });

  it("the language and time-zone selectors store the preference through its one validation", async () => {
    const browser = await loggedIn();
    const token = await tokenOf(browser);
    const saved = await browser.post(`${PERSONAL}/locale`, { requesttoken: token, language: "nl", timezone: "Europe/Amsterdam" });
    assert.equal(saved.statusCode, 303);
    assert.equal(accepted(await t.services.preferences.get(uid, "core", "lang")), "nl");
    assert.equal(accepted(await t.services.preferences.get(uid, "core", "timezone")), "Europe/Amsterdam");
    const page = await browser.get(PERSONAL);
    assert.match(page.body, /<option value="nl" selected>Nederlands<\/option>/);
    assert.match(page.body, /<option value="Europe\/Amsterdam" selected>/);

    const refused = await browser.post(`${PERSONAL}/locale`, { requesttoken: token, language: "nl", timezone: "Mars/Olympus" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /‘Mars\/Olympus’ is geen tijdzone/);
    assert.equal(accepted(await t.services.preferences.get(uid, "core", "timezone")), "Europe/Amsterdam");

    const browserFollowed = await browser.post(`${PERSONAL}/locale`, { requesttoken: token, language: "", timezone: "" });
    assert.equal(browserFollowed.statusCode, 303);
    assert.equal(accepted(await t.services.preferences.get(uid, "core", "lang")), undefined, "follow my browser: no setting");
    assert.equal(accepted(await t.services.preferences.get(uid, "core", "timezone")), undefined);
  });

  it("a user edits their own full name and email", async () => {
    const browser = await loggedIn();
    const response = await browser.post(`${PERSONAL}/profile`, {
      requesttoken: await tokenOf(browser),
      display_name: "New Name",
      email: `new.${uid}@example.com`,
    });
    assert.equal(response.statusCode, 303);
    const user = accepted(await t.services.users.require(uid));
    assert.equal(user.displayName, "New Name");
    assert.equal(user.email, `new.${uid}@example.com`);
    const refused = await browser.post(`${PERSONAL}/profile`, {
      requesttoken: await tokenOf(browser),
      display_name: "New Name",
      email: "not an address",
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(accepted(await t.services.users.require(uid)).email, `new.${uid}@example.com`);
  });

  it("an address another account has is refused in the profile form, whatever its case; nothing of the form is saved", async () => {
    accepted(await t.services.users.create({ uid: `other${uidCounter}`, email: `Taken.${uidCounter}@Example.com` }));
    const browser = await loggedIn();
    const refused = await browser.post(`${PERSONAL}/profile`, {
      requesttoken: await tokenOf(browser),
      display_name: "Impostor",
      email: `taken.${uidCounter}@example.COM`,
    });
    assert.equal(refused.statusCode, 400);
    assert.match(
      refused.body,
      new RegExp(
        `<p class="error">the email address &quot;taken\\.${uidCounter}@example\\.COM&quot; is already used by another account</p>`,
      ),
    );
    const user = accepted(await t.services.users.require(uid));
    assert.equal(user.displayName, "Old Name", "the full name sent with it is not saved either");
    assert.equal(user.email, `${uid}@example.com`);
  });

  it("one's own address may be saved again, or with another case; the full name changes with it", async () => {
    const browser = await loggedIn();
    for (const [name, email] of [
      ["Same Address", `${uid}@example.com`],
      ["Other Case", `${uid.toUpperCase()}@EXAMPLE.com`],
    ] as const) {
      const response = await browser.post(`${PERSONAL}/profile`, {
        requesttoken: await tokenOf(browser),
        display_name: name,
        email,
      });
      assert.equal(response.statusCode, 303, response.body);
      const user = accepted(await t.services.users.require(uid));
      assert.equal(user.displayName, name);
      assert.equal(user.email, email);
    }
  });

  it("allow_user_to_change_display_name false forbids editing one's own full name and email", async () => {
    const browser = await loggedIn();
    t.services.settings.set("allow_user_to_change_display_name", false);
    try {
      const page = await browser.get(PERSONAL);
      assert.doesNotMatch(page.body, /id="profile-form"/);
      assert.match(page.body, /id="profile-locked"/);
      const response = await browser.post(`${PERSONAL}/profile`, {
        requesttoken: requestTokenOf(page.body),
        display_name: "Sneaky",
        email: "sneaky@example.com",
      });
      assert.equal(response.statusCode, 403);
      const user = accepted(await t.services.users.require(uid));
      assert.equal(user.displayName, "Old Name");
      assert.equal(user.email, `${uid}@example.com`);
    } finally {
      t.services.settings.set("allow_user_to_change_display_name", true);
    }
  });
});
