import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { replacePassword } from "../../src/accounts/password-change.js";
import { createOAuthTestApp, exchangeCode, issueCode, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import { enableTotp } from "../second-factor/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

const LIST = "/ocs/v2.php/apps/notifications/api/v2/notifications?format=json";
const PERSONAL = "/index.php/settings/personal";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

interface Element {
  app: string;
  subject: string;
  message: string;
  link: string;
  object_type: string;
}

/**
 * What Keystream notifies a user of (src/notifications/domain/kinds.ts): each act makes exactly one
 * notification, its texts in the user's language as the API renders them when read.
 */
describe(`notifications: each producer, in the user's language (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let secret: string;
  const list = async (authorization = basic("alice", secret)): Promise<Element[]> => {
    const response = await t.app.inject({ method: "GET", url: LIST, headers: { authorization } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().ocs.data;
  };
  /** The one notification the act made, in German. */
  const onlyOne = async (): Promise<Element> => {
    const elements = await list();
    assert.equal(elements.length, 1, JSON.stringify(elements));
    return elements[0] as Element;
  };

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.preferences.set("alice", "core", "lang", "de"));
    secret = accepted(await t.services.appPasswords.create("alice", "Telefon")).secret;
  });
  after(() => t.close());
  beforeEach(() => t.services.notifications.dismissAll("alice"));

  it("a new app password", async () => {
    accepted(await t.services.appPasswords.create("alice", "Laptop"));
    const n = await onlyOne();
    assert.equal(n.app, "keystream");
    assert.equal(n.object_type, "app_password_created");
    assert.equal(n.subject, "Neues App-Passwort: Laptop");
    assert.match(n.message, /^Für Ihr Konto wurde ein App-Passwort namens „Laptop“ erstellt\./);
    assert.equal(n.link, "http://localhost:80/index.php/settings/personal");
  });

  it("a Login Flow v2 grant (its app password is the flow's, not a second notification)", async () => {
    const flow = await t.services.loginFlows.start("Nextcloud Desktop (Linux)", "192.0.2.7");
    assert.equal(await t.services.loginFlows.grant(flow.loginToken, { uid: "alice", loginName: "alice" }), true);
    const n = await onlyOne();
    assert.equal(n.subject, "Neues Gerät verbunden: Nextcloud Desktop (Linux)");
    assert.match(n.message, /über den Login Flow Zugriff auf Ihr Konto/);
    assert.equal(await t.services.loginFlows.grant(flow.loginToken, { uid: "alice", loginName: "alice" }), false);
    assert.equal((await list()).length, 1, "a refused grant notifies nothing");
  });

  it("an OAuth client authorized at the consent page; a token without the account scope cannot read notifications", async () => {
    const code = await issueCode(t, WEB_CLIENT, { scope: "activity:read" });
    const n = await onlyOne();
    assert.equal(n.object_type, "oauth_client_authorized");
    assert.equal(n.subject, "Web App hat Zugriff auf Ihr Konto erhalten");
    const token = (await exchangeCode(t, code)).json().access_token as string;
    const refused = await t.app.inject({ method: "GET", url: LIST, headers: { authorization: `Bearer ${token}` } });
    assert.equal(refused.statusCode, 403);
    assert.match(String(refused.headers["www-authenticate"]), /error="insufficient_scope", scope="account"/);
    const accountCode = await issueCode(t, WEB_CLIENT);
    const accountToken = (await exchangeCode(t, accountCode)).json().access_token as string;
    assert.equal((await list(`Bearer ${accountToken}`)).length, 2, "the account scope reads them");
  });

  it("a second factor added and removed: TOTP, recovery codes", async () => {
    await enableTotp(t, "alice");
    assert.equal((await onlyOne()).subject, "Zweiter Faktor hinzugefügt: Authenticator-App (TOTP)");
    await t.services.notifications.dismissAll("alice");
    await t.services.recoveryCodes.regenerate("alice");
    assert.equal((await onlyOne()).subject, "Zweiter Faktor hinzugefügt: Wiederherstellungscodes");
    await t.services.notifications.dismissAll("alice");
    assert.equal(await t.services.secondFactors.disable("alice", "totp"), true);
    const n = await onlyOne();
    assert.equal(n.subject, "Zweiter Faktor entfernt: Authenticator-App (TOTP)");
    assert.match(n.message, /schützt Ihr Konto nicht mehr/);
    await t.services.notifications.dismissAll("alice");
    assert.equal(await t.services.secondFactors.disable("alice", "totp"), false);
    assert.deepEqual(await list(), [], "removing what is not there notifies nothing");
    await t.services.secondFactors.disable("alice", "backup_codes");
  });

  it("the password changed", async () => {
    accepted(await replacePassword(t.services.users, t.services.sessions, "alice", "a brand new password"));
    const n = await onlyOne();
    assert.equal(n.subject, "Ihr Passwort wurde geändert");
    assert.equal(n.object_type, "password_changed");
  });

  it("renders in the language the user has when reading, not when it was made", async () => {
    await t.services.notifications.passwordChanged("alice");
    accepted(await t.services.preferences.set("alice", "core", "lang", "fr"));
    try {
      assert.equal((await onlyOne()).subject, "Votre mot de passe a été changé");
    } finally {
      accepted(await t.services.preferences.set("alice", "core", "lang", "de"));
    }
  });
});

describe(`notifications: the personal settings' switches (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let browser: FormClient;

  before(async () => {
    t = await createOAuthTestApp();
    browser = new FormClient(t.app);
    assert.equal((await browser.login("alice", PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it("a kind switched off is not created; the others and an administrator's message still are", async () => {
    const page = await browser.get(PERSONAL);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /id="notification-settings"/);
    assert.match(page.body, /name="notify_app_password" value="1" checked/);
    const saved = await browser.post(`${PERSONAL}/notifications`, {
      requesttoken: requestTokenOf(page.body),
      notify_login_flow: "1",
      notify_oauth_client: "1",
      notify_password: "1",
      notify_second_factor: "1",
    });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${PERSONAL}#notifications`);
    const after = await browser.get(PERSONAL);
    assert.match(after.body, /id="notification-settings-saved"/);
    assert.match(after.body, /name="notify_app_password" value="1">/);
    assert.match(after.body, /name="notify_password" value="1" checked/);
    assert.equal(accepted(await t.services.preferences.get("alice", "notifications", "app_password")), "0");

    await t.services.notifications.dismissAll("alice");
    accepted(await t.services.appPasswords.create("alice", "Laptop"));
    assert.deepEqual(await t.services.notifications.newest("alice"), [], "switched off: no notification");
    await t.services.notifications.passwordChanged("alice");
    const admin = await t.services.notifications.adminMessage("alice", { short: "From your administrator", long: "" });
    assert.ok(admin.ok);
    assert.deepEqual(
      (await t.services.notifications.newest("alice")).map((n) => n.kind),
      ["admin_message", "password_changed"],
    );
  });

  it("the switches' form needs the session's requesttoken", async () => {
    const refused = await browser.post(`${PERSONAL}/notifications`, { requesttoken: "forged" });
    assert.notEqual(refused.statusCode, 303);
    assert.equal(accepted(await t.services.preferences.get("alice", "notifications", "password")), "1", "unchanged");
  });
});

describe(`notifications are best effort (${testDatabaseDialect})`, () => {
  let t: TestApp;

  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("a notification that cannot be written never fails the act behind it", async () => {
    // The table gone: every write of a notification fails, as with a broken database.
    await t.testStorage.storage.db.schema.dropTable("notifications").execute();
    const { appPassword } = accepted(await t.services.appPasswords.create("alice", "Laptop"));
    assert.equal((await t.services.appPasswords.list("alice")).map((p) => p.id).includes(appPassword.id), true);
    accepted(await replacePassword(t.services.users, t.services.sessions, "alice", "a brand new password"));
    assert.ok(await t.services.users.checkPassword("alice", "a brand new password"));
  });
});
