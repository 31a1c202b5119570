import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ManualClock, systemClock } from "../../src/clock.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";
import { CHALLENGE, enableTotp, SETUP } from "./support.js";

const PASSWORD = "correct horse battery";

/**
 * The administrator's side: Nextcloud's `./occ twofactorauth:*` commands (their names, output and
 * exit codes) and the users table's column. The app runs on the real clock: occ reads with it.
 */
describe("./occ twofactorauth:state, :disable, :enforce and the admin page's second factors", () => {
  let storage: TestStorage;
  let node: Pick<TestApp, "app" | "services"> & { clock: ManualClock };
  const occ = (...argv: string[]) => runOccInProcess(argv, storage);

  before(async () => {
    storage = await createTestStorage();
    const clock = new ManualClock(systemClock.nowSeconds());
    node = { ...(await createAppOn(storage.storage, storage.dataDir, clock)), clock };
    for (const uid of ["alice", "bob"]) accepted(await node.services.users.create({ uid, password: PASSWORD }));
    accepted(await node.services.users.create({ uid: "root", password: PASSWORD, isAdmin: true }));
  });
  after(async () => {
    await node.app.close();
    await storage.cleanup();
  });

  it("state lists a user's enabled and disabled providers as Nextcloud prints them; an unknown user is Invalid UID", async () => {
    const none = await occ("twofactorauth:state", "alice");
    assert.equal(none.code, 0, none.err);
    assert.equal(
      none.out,
      "Two-factor authentication is not enabled for user alice\n\nDisabled providers:\n- totp\n- backup_codes\n- webauthn\n",
    );
    await enableTotp(node as TestApp, "alice");
    await node.services.recoveryCodes.regenerate("alice");
    const on = await occ("twofactorauth:state", "alice");
    assert.equal(
      on.out,
      "Two-factor authentication is enabled for user alice\n\nEnabled providers:\n- totp\n- backup_codes\nDisabled providers:\n- webauthn\n",
    );
    const json = await occ("twofactorauth:state", "alice", "--output=json");
    assert.deepEqual(JSON.parse(json.out), { enabled: true, providers: { totp: true, backup_codes: true, webauthn: false } });
    const unknown = await occ("twofactorauth:state", "nobody");
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /Invalid UID/);
  });

  it("disable switches one provider off for a user; an unknown provider is refused with exit code 2", async () => {
    await enableTotp(node as TestApp, "bob");
    await node.services.recoveryCodes.regenerate("bob");
    const off = await occ("twofactorauth:disable", "bob", "totp");
    assert.equal(off.code, 0, off.err);
    assert.equal(off.out, "Two-factor provider totp disabled for user bob.\n");
    assert.equal(await node.services.secondFactors.hasSecondFactor("bob"), false);
    assert.equal((await node.services.recoveryCodes.counts("bob")).total, 10, "only the named provider");
    assert.equal((await occ("twofactorauth:disable", "bob", "backup_codes")).code, 0);
    assert.equal((await node.services.recoveryCodes.counts("bob")).total, 0);
    const origin = "https://keystream.example";
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await node.services.passkeys.registrationOptions("bob", "bob", origin);
    assert.equal(
      (await node.services.passkeys.register("bob", "Key", JSON.stringify(authenticator.register(options)), origin)).ok,
      true,
    );
    assert.match((await occ("twofactorauth:state", "bob")).out, /Enabled providers:\n- webauthn\n/);
    const passkeys = await occ("twofactorauth:disable", "bob", "webauthn");
    assert.equal(passkeys.code, 0, passkeys.err);
    assert.equal(passkeys.out, "Two-factor provider webauthn disabled for user bob.\n");
    assert.deepEqual(await node.services.passkeys.list("bob"), [], "every passkey of the user removed");
    assert.equal((await occ("twofactorauth:disable", "bob", "sms")).code, 2);
    assert.equal((await occ("twofactorauth:disable", "nobody", "totp")).code, 1);
  });

  it("enforce --on and --off switch enforcement and print the state; an enforced user without a factor is led to the setup", async () => {
    assert.equal((await occ("twofactorauth:enforce")).out, "Two-factor authentication is not enforced\n");
    const on = await occ("twofactorauth:enforce", "--on");
    assert.equal(on.code, 0, on.err);
    assert.equal(on.out, "Two-factor authentication is enforced for all users\n");
    node.services.settings.load();
    assert.equal(node.services.secondFactors.enforced(), true, "the server reads the same setting");
    const browser = new FormClient(node.app, "192.0.2.10");
    assert.equal((await browser.login("bob", PASSWORD)).headers.location, SETUP);
    const off = await occ("twofactorauth:enforce", "--off");
    assert.equal(off.out, "Two-factor authentication is not enforced\n");
    node.services.settings.load();
    assert.equal(node.services.secondFactors.enforced(), false);
    assert.equal((await occ("twofactorauth:enforce", "--on", "--off")).code, 2, "one of the two");
  });

  it("the users table shows each user's factors, and the administrator removes one after confirming the password", async () => {
    await node.services.totp.disableFor("alice");
    await enableTotp(node as TestApp, "alice");
    const admin = new FormClient(node.app, "192.0.2.20");
    assert.equal((await admin.login("root", PASSWORD)).statusCode, 303);
    const page = await admin.get("/index.php/settings/admin/users");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<th scope="col">Second factors<\/th>/);
    const cell =
      /<a href="\/index\.php\/settings\/admin\/users\/alice">alice<\/a>[\s\S]*?<td data-label="Second factors">([^<]*)<\/td>/.exec(
        page.body,
      )?.[1] ?? "";
    assert.match(cell, /^Authenticator app \(TOTP\)/);
    const userPage = await admin.get("/index.php/settings/admin/users/alice");
    const section = /<section id="user-factors">([\s\S]*?)<\/section>/.exec(userPage.body)?.[1] ?? "";
    assert.match(section, /action="\/index.php\/settings\/users\/alice\/second-factors\/totp\/disable"/);
    assert.match(section, /aria-label="Remove Authenticator app \(TOTP\) of alice"/);
    node.clock.advance(31 * 60);
    const action = "/index.php/settings/users/alice/second-factors/totp/disable";
    const asked = await admin.post(action, { requesttoken: requestTokenOf(page.body) });
    assert.equal(asked.statusCode, 403, "a stale password confirmation is asked for");
    assert.match(asked.body, /id="confirm-password-form"/);
    assert.equal(await node.services.secondFactors.hasSecondFactor("alice"), true);
    const removed = await admin.post(action, { requesttoken: requestTokenOf(page.body), confirm_password: PASSWORD });
    assert.equal(removed.statusCode, 303, "post/redirect/get, back to the user's page");
    assert.equal(removed.headers.location, "/index.php/settings/admin/users/alice#user-notice");
    assert.match((await admin.get("/index.php/settings/admin/users/alice")).body, /id="user-notice" role="status">/);
    assert.equal(await node.services.secondFactors.hasSecondFactor("alice"), false);
    const user = new FormClient(node.app, "192.0.2.21");
    assert.ok(!String((await user.login("alice", PASSWORD)).headers.location).startsWith(CHALLENGE), "the password alone again");
    const bobUser = new FormClient(node.app, "192.0.2.22");
    assert.equal((await bobUser.login("bob", PASSWORD)).statusCode, 303);
    const forbidden = await bobUser.post("/index.php/settings/users/alice/second-factors/totp/disable", {
      requesttoken: requestTokenOf((await bobUser.get("/index.php/settings/personal")).body),
    });
    assert.equal(forbidden.statusCode, 403, "administrators only");
  });
});
