import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { ManualClock } from "../../src/clock.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import { addClient, loggedIn, type TestClient } from "../oauth/support.js";
import { createAppOn, createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { LogoutReceiver, signInTo, verifyLogoutToken } from "./logout-receiver.js";

const RP: TestClient = {
  name: "Relying Party",
  clientId: "relyingpartyclientid0123456789abcdefghijklmn",
  secret: "relyingpartysecret0123456789abcdefghijklmnopq",
  redirectUri: "https://rp.example.com/callback",
};
const PASSWORD = "correct horse battery";

describe(`back-channel logout's delivery queue (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let receiver: LogoutReceiver;
  let users = 0;
  const others: Array<{ app: { close(): Promise<unknown> }; storage: Storage }> = [];

  before(async () => {
    receiver = await new LogoutReceiver().start();
  });
  after(() => receiver.close());
  afterEach(async () => {
    for (const other of others.splice(0)) {
      await other.app.close();
      await other.storage.close();
    }
    await t.close();
    receiver.clear();
    receiver.statuses.clear();
  });

  async function app(): Promise<TestApp> {
    t = await createTestApp();
    await addClient(t, RP);
    assert.ok((await t.services.oauth.clients.modify(RP.name, "backchannel-logout-url", `${receiver.base}/rp/logout`)).ok);
    return t;
  }

  /** A user's session signed in to RP, then ended; the first send has run. Returns the session's sid. */
  async function endedSession(): Promise<string> {
    users++;
    const uid = `user${String(users)}`;
    accepted(await t.services.users.create({ uid, password: PASSWORD }));
    const browser = await loggedIn(t, uid, PASSWORD);
    const { claims } = await signInTo(t, browser, RP);
    accepted(await t.services.users.setEnabled(uid, false));
    await t.services.oidc.backchannel.settled();
    return claims.sid as string;
  }

  const queued = async () =>
    t.services.storage.db.selectFrom("oidc_logout_deliveries").select(["attempts", "next_attempt_at"]).execute();

  /** Another node: its own connection to the same database, its own clock. */
  async function secondNode(clock: ManualClock) {
    const storage = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    const node = await createAppOn(storage, t.testStorage.dataDir, clock);
    others.push({ app: node.app, storage });
    return node;
  }

  it("Back-Channel Logout 2.8: a receiver that fails is tried again after the back-off; the retry delivers a valid token", async () => {
    await app();
    receiver.statuses.set("/rp/logout", 500);
    const sid = await endedSession();
    assert.equal(receiver.to("/rp/logout").length, 1, "the first send, at once");
    assert.deepEqual(
      (await queued()).map((row) => Number(row.attempts)),
      [1],
    );
    assert.deepEqual(await t.services.oidc.backchannel.deliverDue(), { sent: 0, retried: 0, dropped: 0 }, "not due yet");
    receiver.statuses.set("/rp/logout", 200);
    t.clock.advance(60);
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("oidc:backchannel-logout"), "the background job sends the queue");
    assert.equal(receiver.to("/rp/logout").length, 2);
    const claims = await verifyLogoutToken(t, receiver.posts[1]?.logoutToken, RP);
    assert.equal(claims.sid, sid);
    assert.deepEqual(await queued(), [], "delivered: off the queue");
  });

  it("Back-Channel Logout 2.8: a delivery is given up after five failed sends over about an hour", async () => {
    await app();
    receiver.statuses.set("/rp/logout", 503);
    await endedSession();
    for (const wait of [60, 300, 900, 2400]) {
      t.clock.advance(wait - 1);
      assert.equal((await t.services.oidc.backchannel.deliverDue()).retried + (await queued()).length, 1);
      t.clock.advance(1);
      await t.services.oidc.backchannel.deliverDue();
    }
    assert.equal(receiver.to("/rp/logout").length, 5);
    assert.deepEqual(await queued(), []);
  });

  it("Back-Channel Logout 2.5: a redirect is not followed, and counts as a failed send", async () => {
    await app();
    receiver.statuses.set("/rp/logout", 307);
    await endedSession();
    assert.equal(receiver.to("/rp/logout").length, 1);
    assert.equal(receiver.to("/elsewhere").length, 0, "the token never goes where a redirect points");
    assert.deepEqual(
      (await queued()).map((row) => Number(row.attempts)),
      [1],
    );
  });

  it("the queue survives a restart: a new node on the same database delivers what the stopped one could not", async () => {
    await app();
    receiver.statuses.set("/rp/logout", 500);
    const sid = await endedSession();
    await t.app.close();
    receiver.statuses.set("/rp/logout", 200);
    const restarted = await secondNode(new ManualClock(t.clock.nowSeconds() + 60));
    assert.deepEqual(await restarted.services.oidc.backchannel.deliverDue(), { sent: 1, retried: 0, dropped: 0 });
    assert.equal((await verifyLogoutToken(restarted, receiver.posts.at(-1)?.logoutToken, RP)).sid, sid);
  });

  it("two nodes running the queue at once never both send the same delivery", async () => {
    await app();
    receiver.statuses.set("/rp/logout", 500);
    const sids = [await endedSession(), await endedSession(), await endedSession(), await endedSession()];
    receiver.clear();
    receiver.statuses.set("/rp/logout", 200);
    t.clock.advance(60);
    const other = await secondNode(new ManualClock(t.clock.nowSeconds()));
    const [a, b] = await Promise.all([t.services.oidc.backchannel.deliverDue(), other.services.oidc.backchannel.deliverDue()]);
    assert.equal(a.sent + b.sent, sids.length);
    const received = await Promise.all(
      receiver.posts.map(async (post) => (await verifyLogoutToken(t, post.logoutToken, RP)).sid),
    );
    assert.deepEqual(received.sort(), [...sids].sort(), "each session's token exactly once");
  });
});
