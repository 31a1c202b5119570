import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PASSWORD_CONFIRMATION_WINDOW_SECONDS } from "../../src/accounts/password-confirmation.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { referenceTotp } from "./reference-totp.js";
import { answerChallenge, basic, CHALLENGE, currentCode, enableTotp, PERSONAL, SETUP } from "./support.js";

const PASSWORD = "the right password";
const FACTORS = `${PERSONAL}/second-factors`;

/** Recovery codes as the settings page's one-time message lists them. */
function codesOf(page: string): string[] {
  const list = /<ol class="recovery-codes" id="recovery-code-list">([\s\S]*?)<\/ol>/.exec(page)?.[1] ?? "";
  return [...list.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1] ?? "");
}

describe("second factors in personal settings, recovery codes and enforcement", () => {
  let t: TestApp;
  let counter = 0;
  let uid = "";
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());
  beforeEach(async () => {
    uid = `member${++counter}`;
    accepted(await t.services.users.create({ uid, password: PASSWORD }));
  });
  const ip = () => `198.51.100.${counter}`;
  const loggedIn = async () => {
    const browser = new FormClient(t.app, ip());
    assert.equal((await browser.login(uid, PASSWORD)).statusCode, 303);
    return browser;
  };
  const personal = async (browser: FormClient) => {
    const page = await browser.get(PERSONAL);
    assert.equal(page.statusCode, 200, page.body);
    return page.body;
  };

  it("enrolment shows a QR code and the key, and TOTP is enabled only by a correct code for that key", async () => {
    const browser = await loggedIn();
    let page = await personal(browser);
    assert.match(page, /id="totp-begin-form"/);
    assert.equal((await browser.post(`${FACTORS}/totp/begin`, { requesttoken: requestTokenOf(page) })).statusCode, 303);
    page = await personal(browser);
    assert.match(page, /<div class="qr-code" role="img" aria-label="[^"]+" id="totp-qr"><svg aria-hidden="true"/);
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(page)?.[1] ?? "";
    assert.match(secret, /^[A-Z2-7]{32}$/, "160 bits, Base32");
    assert.equal(await t.services.secondFactors.hasSecondFactor(uid), false, "pending is not enabled");
    const wrongKey = referenceTotp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", t.clock.nowSeconds());
    const refused = await browser.post(`${FACTORS}/totp/enable`, { requesttoken: requestTokenOf(page), code: wrongKey });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /id="totp-error"/);
    assert.equal(await t.services.secondFactors.hasSecondFactor(uid), false);
    const enabled = await browser.post(`${FACTORS}/totp/enable`, {
      requesttoken: requestTokenOf(page),
      code: referenceTotp(secret, t.clock.nowSeconds()),
    });
    assert.equal(enabled.statusCode, 200);
    assert.match(enabled.body, /id="totp-enabled"/);
    assert.equal(await t.services.secondFactors.hasSecondFactor(uid), true);
    const stored = await t.services.storage.db
      .selectFrom("second_factor_totp")
      .selectAll()
      .where("uid", "=", uid)
      .executeTakeFirst();
    assert.ok(stored);
    assert.ok(!stored.sealed_secret.includes(secret), "the secret is stored sealed");
    assert.equal(t.services.sealer.decrypt(stored.sealed_secret), secret);
  });

  it("setting up or removing a factor needs a recent password confirmation", async () => {
    const browser = await loggedIn();
    t.clock.advance(PASSWORD_CONFIRMATION_WINDOW_SECONDS + 60);
    const page = await personal(browser);
    assert.match(page, /id="totp-begin-confirm-password"/, "the form asks for the password");
    const asked = await browser.post(`${FACTORS}/totp/begin`, { requesttoken: requestTokenOf(page) });
    assert.equal(asked.statusCode, 403);
    assert.match(asked.body, /id="confirm-password-form"/);
    assert.equal(await t.services.totp.pendingSecret(uid), undefined, "nothing begun");
    const confirmed = await browser.post(`${FACTORS}/totp/begin`, {
      requesttoken: requestTokenOf(page),
      confirm_password: PASSWORD,
    });
    assert.equal(confirmed.statusCode, 303);
    assert.ok(await t.services.totp.pendingSecret(uid));
  });

  it("recovery codes: ten, shown once, each accepted once at the challenge, counted, and void once regenerated", async () => {
    const secret = await enableTotp(t, uid);
    // The login that follows passes the challenge with TOTP.
    const browser = new FormClient(t.app, ip());
    const login = await browser.login(uid, PASSWORD);
    assert.equal((await answerChallenge(browser, String(login.headers.location), currentCode(t, secret))).statusCode, 303);
    let page = await personal(browser);
    assert.match(page, /No recovery codes generated\./);
    const made = await browser.post(`${FACTORS}/recovery-codes`, { requesttoken: requestTokenOf(page) });
    assert.equal(made.statusCode, 303);
    page = await personal(browser);
    const codes = codesOf(page);
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    const download = /href="data:text\/plain;charset=utf-8,([^"]+)" download="keystream-recovery-codes.txt"/.exec(page)?.[1];
    assert.ok(download, "a text download");
    for (const code of codes) assert.ok(decodeURIComponent(download).includes(code));
    assert.match(page, /10 of 10 recovery codes left\./);
    assert.deepEqual(codesOf(await personal(browser)), [], "shown only once");
    const stored = await t.services.storage.db
      .selectFrom("second_factor_recovery_codes")
      .selectAll()
      .where("uid", "=", uid)
      .execute();
    for (const code of codes) assert.ok(!stored.some((row) => row.code_hash.includes(code)), "stored hashed");

    const withRecovery = async (code: string) => {
      const other = new FormClient(t.app, ip());
      const started = await other.login(uid, PASSWORD);
      const challenge = await other.get(String(started.headers.location));
      assert.match(challenge.body, /id="challenge-backup-codes"/, "offered when unused codes are left");
      return { other, answered: await answerChallenge(other, String(started.headers.location), code, "backup_codes") };
    };
    const first = codes[0] ?? "";
    assert.equal((await withRecovery(first.toLowerCase())).answered.statusCode, 303, "typed in lower case");
    assert.equal((await withRecovery(first)).answered.statusCode, 401, "single use");
    assert.match(await personal(browser), /9 of 10 recovery codes left\./);

    page = await personal(browser);
    assert.equal((await browser.post(`${FACTORS}/recovery-codes`, { requesttoken: requestTokenOf(page) })).statusCode, 303);
    const fresh = codesOf(await personal(browser));
    assert.equal((await withRecovery(codes[1] ?? "")).answered.statusCode, 401, "the old set is void");
    assert.equal((await withRecovery(fresh[0] ?? "")).answered.statusCode, 303);
  });

  it("disabling TOTP in settings removes it and the recovery codes; the next login needs the password only", async () => {
    const secret = await enableTotp(t, uid);
    await t.services.recoveryCodes.regenerate(uid);
    const browser = new FormClient(t.app, ip());
    const login = await browser.login(uid, PASSWORD);
    assert.equal((await answerChallenge(browser, String(login.headers.location), currentCode(t, secret))).statusCode, 303);
    const page = await personal(browser);
    assert.match(page, /id="totp-disable-form"/);
    const disabled = await browser.post(`${FACTORS}/totp/disable`, { requesttoken: requestTokenOf(page) });
    assert.equal(disabled.statusCode, 200);
    assert.match(disabled.body, /id="totp-disabled"/);
    assert.equal(await t.services.secondFactors.hasSecondFactor(uid), false);
    assert.deepEqual(await t.services.recoveryCodes.counts(uid), { total: 0, unused: 0 });
    const again = new FormClient(t.app, ip());
    assert.equal((await again.login(uid, PASSWORD)).headers.location, PERSONAL);
  });

  it("enforced: a user without a factor sets one up right after the password, before anything else", async () => {
    t.services.secondFactors.setEnforced(true);
    try {
      const browser = new FormClient(t.app, ip());
      const login = await browser.login(uid, PASSWORD, "/index.php/apps/activity/");
      assert.equal(login.headers.location, `${SETUP}?redirect_url=${encodeURIComponent("/index.php/apps/activity/")}`);
      const elsewhere = await browser.get(PERSONAL);
      assert.equal(elsewhere.headers.location, `${SETUP}?redirect_url=${encodeURIComponent(PERSONAL)}`);
      assert.equal((await browser.get(CHALLENGE)).headers.location, SETUP, "the challenge is not this session's step");
      const basicRefused = await t.app.inject({
        method: "GET",
        url: "/ocs/v2.php/cloud/user?format=json",
        remoteAddress: ip(),
        headers: { authorization: basic(uid, PASSWORD), "ocs-apirequest": "true" },
      });
      assert.equal(basicRefused.statusCode, 401, "enforced: the account password is no Basic credential");
      const page = await browser.get(String(login.headers.location));
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /id="setup-intro"/);
      assert.match(String(page.headers["content-security-policy"]), /default-src 'self'; script-src 'self'/);
      assert.equal(page.headers["x-frame-options"], "DENY");
      const secret = /id="totp-secret">([A-Z2-7]+)</.exec(page.body)?.[1] ?? "";
      const form = { requesttoken: requestTokenOf(page.body), redirect_url: "/index.php/apps/activity/" };
      assert.equal((await browser.post(SETUP, { ...form, code: "000000" })).statusCode, 400);
      const done = await browser.post(SETUP, { ...form, code: referenceTotp(secret, t.clock.nowSeconds()) });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(codesOf(done.body).length, 10, "the first recovery codes, shown once");
      assert.match(done.body, /href="\/index.php\/apps\/activity\/" id="setup-continue"/);
      assert.equal((await browser.get(PERSONAL)).statusCode, 200, "a complete login now");
      assert.equal(await t.services.secondFactors.hasSecondFactor(uid), true);
    } finally {
      t.services.secondFactors.setEnforced(false);
    }
  });
});
