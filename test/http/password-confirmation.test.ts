import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { PASSWORD_CONFIRMATION_WINDOW_SECONDS } from "../../src/accounts/password-confirmation.js";
import { LOGIN_THROTTLE } from "../../src/security/domain/throttle-policy.js";
import { poll, type StartedFlow, startFlow } from "../login-flow/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const PERSONAL = "/index.php/settings/personal";
const CREATE = `${PERSONAL}/app-passwords`;
const PASSWORD = "the right password";
/** Just past the window: the session's last proof of the password no longer counts. */
const STALE = PASSWORD_CONFIRMATION_WINDOW_SECONDS + 60;

/** The confirmation page's form as a browser would submit it: its action and every field, the password typed in. */
function confirmationForm(page: string, password: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)" id="confirm-password-form">([\s\S]*?)<\/form>/.exec(page);
  assert.ok(form?.[1] && form[2] !== undefined, "the page asks for the password");
  const fields: Record<string, string> = {};
  for (const match of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1] ?? ""] = unescapeHtml(match[2] ?? "");
  }
  assert.match(form[2], /<label for="confirm-password">Your password<\/label>/, "the password field has a label");
  fields.confirm_password = password;
  return { action: unescapeHtml(form[1]), fields };
}

/** What a browser reads from an attribute the page escaped (src/http/html.ts). */
function unescapeHtml(text: string): string {
  const entities: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };
  return text.replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => entities[entity] ?? entity);
}

function assertAsksForPassword(response: LightMyRequestResponse, status = 403): void {
  assert.equal(response.statusCode, status, response.body);
  assert.match(response.body, /<h1>Confirm your password<\/h1>/);
  assert.match(response.body, /id="confirm-password-form"/);
}

describe("creating a credential needs a recent password confirmation", () => {
  let t: TestApp;
  let counter = 0;
  let uid = "";
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());
  // Each test has its own user and address, so throttle counts do not leak between tests.
  beforeEach(async () => {
    uid = `confirmer${++counter}`;
    accepted(await t.services.users.create({ uid, password: PASSWORD }));
    t.sleeps.length = 0;
  });
  const ip = () => `198.51.100.${counter}`;

  const loggedIn = async () => {
    const browser = new FormClient(t.app, ip());
    assert.equal((await browser.login(uid, PASSWORD)).statusCode, 303);
    return browser;
  };
  const personalPage = async (browser: FormClient) => {
    const page = await browser.get(PERSONAL);
    assert.equal(page.statusCode, 200);
    return page.body;
  };
  const create = async (browser: FormClient, fields: Record<string, string> = {}) =>
    browser.post(CREATE, { requesttoken: requestTokenOf(await personalPage(browser)), name: "phone", ...fields });
  const appPasswordNames = async () => (await t.services.appPasswords.list(uid)).map((p) => p.name);

  it("a fresh login counts as the confirmation: an app password is created without asking, until the window closes", async () => {
    const browser = await loggedIn();
    assert.doesNotMatch(await personalPage(browser), /name="confirm_password"/, "no password field right after the login");
    assert.equal((await create(browser)).statusCode, 303);
    t.clock.advance(PASSWORD_CONFIRMATION_WINDOW_SECONDS - 1);
    assert.equal((await create(browser)).statusCode, 303, "the last second of the window still counts");
    t.clock.advance(1);
    assertAsksForPassword(await create(browser));
    assert.deepEqual(await appPasswordNames(), ["phone", "phone"]);
  });

  it("with a confirmation older than the window, creating an app password asks for the password and creates nothing", async () => {
    const browser = await loggedIn();
    t.clock.advance(STALE);
    const page = await personalPage(browser);
    assert.match(
      page,
      /<label for="app-password-confirm-password">Your password<\/label>\n<input type="password" id="app-password-confirm-password" name="confirm_password" autocomplete="current-password" required aria-describedby="app-password-confirm-password-hint">/,
      "the create form itself asks for the password, labelled and described",
    );
    const asked = await create(browser, { name: "Laptop <work>" });
    assertAsksForPassword(asked);
    assert.deepEqual(await appPasswordNames(), [], "nothing was created");
    const form = confirmationForm(asked.body, PASSWORD);
    assert.equal(form.action, CREATE, "the password goes back to the action that asked for it");
    assert.equal(form.fields.name, "Laptop <work>", "with the action's own fields, unchanged");
    assert.equal(form.fields.requesttoken, requestTokenOf(page));
  });

  it("after the password is confirmed, the action goes on without being sent again, and the confirmation lasts the window", async () => {
    const browser = await loggedIn();
    t.clock.advance(STALE);
    const asked = await create(browser);
    const { action, fields } = confirmationForm(asked.body, PASSWORD);
    const confirmed = await browser.post(action, fields);
    assert.equal(confirmed.statusCode, 303, "the create went on");
    assert.match(await personalPage(browser), /id="new-app-password-secret">[A-Za-z0-9]{72}</, "and its secret is shown once");
    assert.deepEqual(await appPasswordNames(), ["phone"]);
    // The confirmation is the session's now: no more asking until the window closes again.
    t.clock.advance(PASSWORD_CONFIRMATION_WINDOW_SECONDS - 1);
    assert.equal((await create(browser)).statusCode, 303);
    t.clock.advance(1);
    assertAsksForPassword(await create(browser));
    // The password typed into the create form itself serves as well.
    assert.equal((await create(browser, { name: "tablet", confirm_password: PASSWORD })).statusCode, 303);
    assert.deepEqual(await appPasswordNames(), ["phone", "phone", "tablet"]);
  });

  it("another browser session of the same user is not confirmed by this one's confirmation", async () => {
    const first = await loggedIn();
    const second = await loggedIn();
    t.clock.advance(STALE);
    assert.equal((await create(first, { confirm_password: PASSWORD })).statusCode, 303);
    assertAsksForPassword(await create(second));
    assert.deepEqual(await appPasswordNames(), ["phone"]);
  });

  it("a wrong password on the confirmation is refused, creates nothing, and is throttled as a failed login", async () => {
    const browser = await loggedIn();
    t.clock.advance(STALE);
    const wrong = await create(browser, { confirm_password: "not it" });
    assertAsksForPassword(wrong);
    assert.match(wrong.body, /<p class="error" id="confirm-password-error" role="alert">The password is wrong\.<\/p>/);
    assert.match(wrong.body, /aria-describedby="confirm-password-error" aria-invalid="true"/);
    assert.deepEqual(t.sleeps, [], "the first failure owes nothing");
    await create(browser, { confirm_password: "not it either" });
    assert.deepEqual(t.sleeps, [200], "the second attempt waited for the first failure (the login throttle's delays)");
    t.sleeps.length = 0;
    assert.equal((await new FormClient(t.app, ip()).login(uid, "a guess")).statusCode, 401);
    assert.deepEqual(t.sleeps, [400], "the login form owes the delay of both failed confirmations: one count");
    assert.deepEqual(await appPasswordNames(), []);
  });

  it(`past ${LOGIN_THROTTLE.lockoutAfterFailures} failures the confirmation answers 429 with Retry-After, even with the right password`, async () => {
    const browser = await loggedIn();
    t.clock.advance(STALE);
    const token = requestTokenOf(await personalPage(browser));
    for (let i = 0; i < LOGIN_THROTTLE.lockoutAfterFailures; i++) {
      await browser.post(CREATE, { requesttoken: token, name: "phone", confirm_password: `guess ${i}` });
    }
    const locked = await browser.post(CREATE, { requesttoken: token, name: "phone", confirm_password: PASSWORD });
    assertAsksForPassword(locked, 429);
    assert.ok(Number(locked.headers["retry-after"]) > 0);
    assert.match(locked.body, /Too many failed attempts/);
    assert.deepEqual(await appPasswordNames(), [], "nothing was created");
  });

  it("without the session's CSRF token, a password sent along is not even looked at", async () => {
    const browser = await loggedIn();
    t.clock.advance(STALE);
    const forged = await browser.post(CREATE, { requesttoken: "forged", name: "phone", confirm_password: "guess" });
    assert.equal(forged.statusCode, 403);
    assert.doesNotMatch(forged.body, /confirm-password-form/);
    assert.deepEqual(t.sleeps, []);
    assert.equal((await create(browser, { confirm_password: "another guess" })).statusCode, 403);
    assert.deepEqual(t.sleeps, [], "the forged post counted no failure");
  });

  describe("granting a Login Flow v2", () => {
    let flow: StartedFlow;
    const grantPage = async (browser: FormClient) => {
      const page = await browser.get(flow.loginPath);
      assert.equal(page.statusCode, 200);
      return page.body;
    };
    const grant = async (browser: FormClient, fields: Record<string, string> = {}) =>
      browser.post(`${flow.loginPath}/grant`, { requesttoken: requestTokenOf(await grantPage(browser)), ...fields });

    it("with a confirmation older than the window, the grant asks for the password and grants nothing; confirmed, the client gets its app password", async () => {
      const browser = await loggedIn();
      t.clock.advance(STALE);
      // The flow lives 20 minutes: started once the session's confirmation has aged.
      flow = await startFlow(t.app, ip());
      assert.match(
        await grantPage(browser),
        /<input type="password" id="login-flow-confirm-password" name="confirm_password" autocomplete="current-password" required/,
        "the grant form asks for the password",
      );
      const asked = await grant(browser);
      assertAsksForPassword(asked);
      assert.equal((await poll(t.app, flow.pollToken, ip())).statusCode, 404, "nothing was granted");
      assert.deepEqual(await appPasswordNames(), []);
      const { action, fields } = confirmationForm(asked.body, PASSWORD);
      assert.equal(action, `${flow.loginPath}/grant`);
      const done = await browser.post(action, fields);
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.body, /id="login-flow-done"/);
      const polled = await poll(t.app, flow.pollToken, ip());
      assert.equal(polled.statusCode, 200);
      assert.equal(polled.json().loginName, uid);
      assert.equal((await t.services.appPasswords.list(uid)).length, 1);
    });

    it("a wrong password grants nothing; the password typed into the grant form grants at once", async () => {
      const browser = await loggedIn();
      t.clock.advance(STALE);
      flow = await startFlow(t.app, ip());
      const wrong = await grant(browser, { confirm_password: "not it" });
      assertAsksForPassword(wrong);
      assert.match(wrong.body, /The password is wrong\./);
      assert.equal((await poll(t.app, flow.pollToken, ip())).statusCode, 404);
      const granted = await grant(browser, { confirm_password: PASSWORD });
      assert.equal(granted.statusCode, 200, granted.body);
      assert.equal((await poll(t.app, flow.pollToken, ip())).statusCode, 200);
    });

    it("cancelling needs no confirmation", async () => {
      const browser = await loggedIn();
      t.clock.advance(STALE);
      flow = await startFlow(t.app, ip());
      const cancelled = await browser.post(`${flow.loginPath}/cancel`, {
        requesttoken: requestTokenOf(await grantPage(browser)),
      });
      assert.equal(cancelled.statusCode, 200);
      assert.match(cancelled.body, /id="login-flow-cancelled"/);
    });
  });
});
