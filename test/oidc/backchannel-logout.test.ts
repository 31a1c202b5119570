import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { addClient, loggedIn, PASSWORD, type TestClient, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { type FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { LogoutReceiver, signInTo, verifyLogoutToken } from "./logout-receiver.js";
import { createOidcTestApp, END_SESSION } from "./support.js";

const RP2: TestClient = {
  name: "Second RP",
  clientId: "secondrpclientid0123456789abcdefghijklmnopqr",
  secret: "secondrpsecret0123456789abcdefghijklmnopqrstuv",
  redirectUri: "https://rp2.example.com/callback",
};
const NO_BACKCHANNEL: TestClient = {
  name: "No back-channel",
  clientId: "nobackchannelclientid0123456789abcdefghijklm",
  secret: "nobackchannelsecret0123456789abcdefghijklmnop",
  redirectUri: "https://rp3.example.com/callback",
};
const SESSIONS = "/index.php/settings/personal";

/** The id hash of the browser's session (what the sessions table and the settings page name it by). */
function sessionIdHashOf(browser: FormClient): string {
  const token = /(?:^|; )ks_session=([^;]+)/.exec(browser.cookieHeader)?.[1];
  assert.ok(token, "a session cookie");
  return sha256Hex(decodeURIComponent(token));
}

describe(`OpenID Connect Back-Channel Logout 1.0 (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let receiver: LogoutReceiver;
  let users = 0;

  before(async () => {
    t = await createOidcTestApp();
    receiver = await new LogoutReceiver().start();
    const rp1 = await t.services.oauth.clients.modify(
      WEB_CLIENT.name,
      "backchannel-logout-url",
      `${receiver.base}/rp1/redirect_uri?logout=backchannel`,
    );
    assert.ok(rp1.ok);
    await addClient(t, RP2);
    assert.ok((await t.services.oauth.clients.modify(RP2.name, "backchannel-logout-url", `${receiver.base}/rp2/logout`)).ok);
    await addClient(t, NO_BACKCHANNEL);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  /** A new user logged in (each test its own, so no other test's sessions answer). */
  async function freshUser(): Promise<{ uid: string; browser: FormClient }> {
    users++;
    const uid = `user${String(users)}`;
    accepted(await t.services.users.create({ uid, password: PASSWORD, displayName: `User ${String(users)}` }));
    return { uid, browser: await loggedIn(t, uid) };
  }

  /** A session signed in to the three clients; returns the `sid` of its ID tokens. */
  async function sessionWithThreeClients(browser: FormClient): Promise<string> {
    const sids = new Set<unknown>();
    for (const client of [WEB_CLIENT, RP2, NO_BACKCHANNEL]) sids.add((await signInTo(t, browser, client)).claims.sid);
    assert.equal(sids.size, 1, "one sid per session, whatever the client");
    const [sid] = [...sids];
    assert.equal(typeof sid, "string");
    return sid as string;
  }

  /** What the receiver got after the background sends: path → sid of each verified logout token. */
  async function delivered(): Promise<Array<[string, unknown, unknown]>> {
    await t.services.oidc.backchannel.settled();
    const out: Array<[string, unknown, unknown]> = [];
    for (const post of receiver.posts) {
      const client = post.url.includes("/rp1/") ? WEB_CLIENT : RP2;
      const claims = await verifyLogoutToken(t, post.logoutToken, client);
      out.push([post.url, claims.sid, claims.sub]);
    }
    return out.sort();
  }

  it("Back-Channel Logout 2.1: discovery says back-channel logout and its sid are supported", async () => {
    const config = (await t.app.inject({ method: "GET", url: "/index.php/apps/oauth2/.well-known/openid-configuration" })).json();
    assert.equal(config.backchannel_logout_supported, true);
    assert.equal(config.backchannel_logout_session_supported, true);
    assert.ok(config.claims_supported.includes("sid"));
  });

  it("Back-Channel Logout 2.1: ID tokens carry a sid per session, which is neither the session cookie nor its hash", async () => {
    const one = await freshUser();
    const sid = await sessionWithThreeClients(one.browser);
    const other = await loggedIn(t, one.uid);
    const otherSid = (await signInTo(t, other, WEB_CLIENT)).claims.sid;
    assert.notEqual(otherSid, sid, "another session, another sid");
    const cookie = /ks_session=([^;]+)/.exec(one.browser.cookieHeader)?.[1] ?? "";
    assert.ok(!sid.includes(cookie) && sid !== sessionIdHashOf(one.browser));
    // A second sign-in in the same session: the same sid.
    assert.equal((await signInTo(t, one.browser, WEB_CLIENT)).claims.sid, sid);
  });

  it("Back-Channel Logout 2.5: logging out posts a signed logout token to each of the session's clients with a URI, to the URI as registered (query kept)", async () => {
    const { uid, browser } = await freshUser();
    const sid = await sessionWithThreeClients(browser);
    const bystander = await freshUser();
    await sessionWithThreeClients(bystander.browser);
    receiver.clear();
    const page = await browser.get(SESSIONS);
    const response = await browser.post("/index.php/logout", { requesttoken: requestTokenOf(page.body) });
    assert.equal(response.statusCode, 303);
    assert.deepEqual(await delivered(), [
      ["POST /rp1/redirect_uri?logout=backchannel", sid, uid],
      ["POST /rp2/logout", sid, uid],
    ]);
    for (const post of receiver.posts) assert.equal(post.contentType, "application/x-www-form-urlencoded");
  });

  it("the logout answers while the relying party has not yet answered its logout token (the send is not awaited)", async () => {
    const { uid, browser } = await freshUser();
    const sid = await sessionWithThreeClients(browser);
    receiver.clear();
    receiver.holding = true;
    const page = await browser.get(SESSIONS);
    const response = await browser.post("/index.php/logout", { requesttoken: requestTokenOf(page.body) });
    assert.equal(response.statusCode, 303, "logged out");
    await receiver.received(1);
    receiver.release();
    assert.deepEqual(await delivered(), [
      ["POST /rp1/redirect_uri?logout=backchannel", sid, uid],
      ["POST /rp2/logout", sid, uid],
    ]);
  });

  it("Back-Channel Logout 2.7: RP-initiated logout (end_session) tells every client of the session, the initiating one too", async () => {
    const { uid, browser } = await freshUser();
    const sid = await sessionWithThreeClients(browser);
    const { idToken } = await signInTo(t, browser, WEB_CLIENT);
    await sessionWithThreeClients((await freshUser()).browser);
    receiver.clear();
    const response = await browser.get(`${END_SESSION}?id_token_hint=${idToken}`);
    assert.equal(response.statusCode, 200, "logged out at once, on Keystream's page");
    assert.deepEqual(await delivered(), [
      ["POST /rp1/redirect_uri?logout=backchannel", sid, uid],
      ["POST /rp2/logout", sid, uid],
    ]);
  });

  it("Back-Channel Logout 2.7: a session ended in personal settings tells its clients, and only that session's", async () => {
    const { uid, browser } = await freshUser();
    const endedSid = await sessionWithThreeClients(browser);
    const keeper = await loggedIn(t, uid);
    await sessionWithThreeClients(keeper);
    receiver.clear();
    const page = await keeper.get(SESSIONS);
    const response = await keeper.post(`${SESSIONS}/sessions/${sessionIdHashOf(browser)}/end`, {
      requesttoken: requestTokenOf(page.body),
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(await delivered(), [
      ["POST /rp1/redirect_uri?logout=backchannel", endedSid, uid],
      ["POST /rp2/logout", endedSid, uid],
    ]);
  });

  it("Back-Channel Logout 2.7: disabling a user tells the clients of every session of that user", async () => {
    const { uid, browser } = await freshUser();
    const first = await sessionWithThreeClients(browser);
    const second = await sessionWithThreeClients(await loggedIn(t, uid));
    await sessionWithThreeClients((await freshUser()).browser);
    receiver.clear();
    accepted(await t.services.users.setEnabled(uid, false));
    assert.deepEqual(
      await delivered(),
      [
        ["POST /rp1/redirect_uri?logout=backchannel", first, uid],
        ["POST /rp1/redirect_uri?logout=backchannel", second, uid],
        ["POST /rp2/logout", first, uid],
        ["POST /rp2/logout", second, uid],
      ].sort(),
    );
  });

  it("Back-Channel Logout 2.7: deleting a user tells the clients of their sessions", async () => {
    const { uid, browser } = await freshUser();
    const sid = await sessionWithThreeClients(browser);
    await sessionWithThreeClients((await freshUser()).browser);
    receiver.clear();
    accepted(await t.services.users.delete(uid));
    assert.deepEqual(await delivered(), [
      ["POST /rp1/redirect_uri?logout=backchannel", sid, uid],
      ["POST /rp2/logout", sid, uid],
    ]);
  });

  it("Back-Channel Logout 2.7: signing out every other device at a password change tells their clients, not the kept browser's", async () => {
    const { uid, browser } = await freshUser();
    const kept = await sessionWithThreeClients(browser);
    const other = await sessionWithThreeClients(await loggedIn(t, uid));
    receiver.clear();
    const token = /ks_session=([^;]+)/.exec(browser.cookieHeader)?.[1] ?? "";
    await t.services.sessions.endAllOf(uid, decodeURIComponent(token));
    const sent = await delivered();
    assert.deepEqual(sent, [
      ["POST /rp1/redirect_uri?logout=backchannel", other, uid],
      ["POST /rp2/logout", other, uid],
    ]);
    assert.ok(!sent.some(([, sid]) => sid === kept));
  });

  it("Back-Channel Logout 2.7: a session is announced once; a client that never got an ID token in it is not told", async () => {
    const { browser } = await freshUser();
    await signInTo(t, browser, RP2);
    receiver.clear();
    const page = await browser.get(SESSIONS);
    await browser.post("/index.php/logout", { requesttoken: requestTokenOf(page.body) });
    const sent = await delivered();
    assert.deepEqual(
      sent.map(([url]) => url),
      ["POST /rp2/logout"],
    );
    await t.services.oidc.backchannel.deliverDue();
    assert.equal(receiver.posts.length, 1, "nothing left to send");
  });
});
