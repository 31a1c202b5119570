import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { accountRefusal } from "../../src/accounts/errors.js";
import { say, translatorFor } from "../../src/i18n/index.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const PERSONAL = "/index.php/settings/personal";

describe("errors a person reads are in their language (issue 19)", () => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "greta", password: "greta password" }));
    accepted(await t.services.users.create({ uid: "emma", password: "emma password" }));
    accepted(await t.services.preferences.set("greta", "core", "lang", "de"));
  });
  after(() => t.close());

  const refusedAppPassword = async (uid: string) => {
    const browser = new FormClient(t.app);
    assert.equal((await browser.login(uid, `${uid} password`)).statusCode, 303);
    const token = requestTokenOf((await browser.get(PERSONAL)).body);
    return browser.post(`${PERSONAL}/app-passwords`, { requesttoken: token, name: "" });
  };

  it("a refused app-password name is explained in German to a German user and in English to another", async () => {
    const [german, english] = await Promise.all([refusedAppPassword("greta"), refusedAppPassword("emma")]);
    assert.equal(german.statusCode, 400);
    assert.match(german.body, /Der Name eines App-Passworts muss 1 bis 255 Zeichen lang sein\./);
    assert.equal(english.statusCode, 400);
    assert.match(english.body, /an app password name must be 1 to 255 characters/);
  });

  it("the English message (occ, logs) is the English catalogue's sentence with its values", () => {
    const refusal = accountRefusal("uid_taken", "uidTaken", { uid: "greta" });
    assert.equal(refusal.message, 'the user "greta" already exists');
    assert.equal(say(translatorFor("fr"), refusal.phrase), "L’utilisateur « greta » existe déjà.");
  });
});
