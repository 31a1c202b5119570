import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { formatDate } from "../../src/http/console/views/format.js";
import { translatorFor } from "../../src/i18n/index.js";
import {
  authorizeUrl,
  consent,
  createOAuthTestApp,
  exchangeCode,
  loggedIn as oauthLoggedIn,
  refresh,
  WEB_CLIENT,
} from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const PERSONAL = "/index.php/settings/personal";
const PASSWORD = "a good password";

describe("personal settings: one's own sessions and authorized applications", () => {
  let t: TestApp;
  let counter = 0;
  let uid = "";
  let other = "";
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());
  beforeEach(async () => {
    counter += 1;
    uid = `owner${counter}`;
    other = `other${counter}`;
    for (const name of [uid, other]) accepted(await t.services.users.create({ uid: name, password: PASSWORD }));
  });

  /** Logs in through the real form from a browser that sends `userAgent`. */
  const browserOf = async (user: string, userAgent: string) => {
    const browser = new FormClient(t.app, `198.51.100.${counter}`);
    const page = await browser.get("/index.php/login", { "user-agent": userAgent });
    const response = await browser.post(
      "/index.php/login",
      { user, password: PASSWORD, requesttoken: requestTokenOf(page.body) },
      { "user-agent": userAgent },
    );
    assert.equal(response.statusCode, 303);
    return browser;
  };
  const endForms = (page: string) =>
    [...page.matchAll(/action="\/index\.php\/settings\/personal\/sessions\/([0-9a-f]{64})\/end"/g)].map((m) => m[1]);
  const sessionOf = async (user: string, userAgent: string) => {
    const found = (await t.services.sessions.listOf(user)).find((s) => s.userAgent === userAgent);
    assert.ok(found, `a session of ${user} from ${userAgent}`);
    return found;
  };
  const endSession = async (browser: FormClient, id: string, requesttoken?: string) =>
    browser.post(`${PERSONAL}/sessions/${id}/end`, {
      requesttoken: requesttoken ?? requestTokenOf((await browser.get(PERSONAL)).body),
    });

  it("the sessions list shows the user's own live sessions only, this one marked, named by a non-secret id", async () => {
    const laptop = await browserOf(uid, "Laptop Firefox");
    await browserOf(uid, "Phone Safari");
    await browserOf(other, "Someone Else's Chrome");
    const page = (await laptop.get(PERSONAL)).body;
    const section = page.slice(
      page.indexOf('<section id="sessions">'),
      page.indexOf("</section>", page.indexOf('<section id="sessions">')),
    );
    assert.match(section, /Laptop Firefox/);
    assert.match(section, /Phone Safari/);
    assert.doesNotMatch(section, /Someone Else/, "another user's session is not listed");
    assert.equal(section.match(/This session/g)?.length, 1, "the current session is marked once");
    const phone = await sessionOf(uid, "Phone Safari");
    assert.deepEqual(endForms(section), [phone.id], "an End button for the other session only");
    for (const value of laptop.cookieHeader.split("; ").map((c) => c.slice(c.indexOf("=") + 1))) {
      assert.ok(value.length > 0 && !page.includes(value), "no cookie value is on the page");
    }
  });

  it("ending another of one's sessions logs that browser out and keeps the current one", async () => {
    const laptop = await browserOf(uid, "Laptop Firefox");
    const phone = await browserOf(uid, "Phone Safari");
    const phoneSession = await sessionOf(uid, "Phone Safari");
    const response = await endSession(laptop, phoneSession.id);
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /id="session-ended"/);
    assert.equal((await phone.get(PERSONAL)).statusCode, 303, "the ended browser is sent to the login page");
    assert.equal((await laptop.get(PERSONAL)).statusCode, 200, "the current browser stays logged in");
    assert.deepEqual(
      (await t.services.sessions.listOf(uid)).map((s) => s.userAgent),
      ["Laptop Firefox"],
    );
  });

  it("ending someone else's session is refused and ends nothing", async () => {
    const laptop = await browserOf(uid, "Laptop Firefox");
    const stranger = await browserOf(other, "Someone Else's Chrome");
    const theirs = await sessionOf(other, "Someone Else's Chrome");
    const response = await endSession(laptop, theirs.id);
    assert.equal(response.statusCode, 404);
    assert.match(response.body, /id="session-error"/);
    assert.equal((await stranger.get(PERSONAL)).statusCode, 200, "the other user's browser stays logged in");
    assert.equal((await t.services.sessions.listOf(other)).length, 1);
  });

  it("ending a session is refused without the CSRF token and ends nothing", async () => {
    const laptop = await browserOf(uid, "Laptop Firefox");
    const phone = await browserOf(uid, "Phone Safari");
    const phoneSession = await sessionOf(uid, "Phone Safari");
    const response = await endSession(laptop, phoneSession.id, "forged");
    assert.equal(response.statusCode, 403);
    assert.equal((await phone.get(PERSONAL)).statusCode, 200, "the phone stays logged in");
    assert.equal((await t.services.sessions.listOf(uid)).length, 2);
  });

  it("a session's last seen is written at most once a minute", async () => {
    const loggedInAt = t.clock.nowSeconds();
    const laptop = await browserOf(uid, "Laptop Firefox");
    const lastSeen = async () => (await sessionOf(uid, "Laptop Firefox")).lastSeenAt;
    assert.equal(await lastSeen(), loggedInAt, "seen at login");
    t.clock.advance(59);
    await laptop.get(PERSONAL);
    assert.equal(await lastSeen(), loggedInAt, "not written again within the minute");
    t.clock.advance(1);
    await laptop.get(PERSONAL);
    assert.equal(await lastSeen(), loggedInAt + 60, "written once the minute is over");
    t.clock.advance(30);
    await laptop.get(PERSONAL);
    assert.equal(await lastSeen(), loggedInAt + 60);
  });

  it("an authorized application shows the date it was granted and its last use (the newest token issue or refresh)", async () => {
    const english = translatorFor("en", null);
    const browser = await oauthLoggedIn(t, uid, PASSWORD);
    const grantedAt = t.clock.nowSeconds();
    const code = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code");
    assert.ok(code);
    t.clock.advance(120);
    const exchanged = await exchangeCode(t, code);
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    const tokens = exchanged.json() as { refresh_token: string };
    const issuedAt = t.clock.nowSeconds();
    const row = async () => {
      const page = (await browser.get(PERSONAL)).body;
      const table = page.slice(
        page.indexOf('id="oauth2-authorized"'),
        page.indexOf("</table>", page.indexOf('id="oauth2-authorized"')),
      );
      assert.ok(table.includes(WEB_CLIENT.name), "the application is listed");
      return table;
    };
    let table = await row();
    assert.ok(table.includes(`<td data-label="Authorized">${formatDate(english, grantedAt)}</td>`), table);
    assert.ok(table.includes(`<td data-label="Last used">${formatDate(english, issuedAt)}</td>`), table);
    t.clock.advance(3600);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
    table = await row();
    assert.ok(table.includes(`<td data-label="Authorized">${formatDate(english, grantedAt)}</td>`), "granted stays");
    assert.ok(
      table.includes(`<td data-label="Last used">${formatDate(english, issuedAt + 3600)}</td>`),
      "last use is the refresh",
    );
  });
});
