import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { connectAs, listenForPush } from "../push/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const V2 = "/ocs/v2.php/apps/notifications/api/v2/notifications";
const V1 = "/ocs/v1.php/apps/notifications/api/v2/notifications";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

const ALICE = { authorization: basic("alice", "alice password"), "ocs-apirequest": "true" };
const BOB = { authorization: basic("bob", "bob password"), "ocs-apirequest": "true" };

describe("notifications API v2 (nextcloud/notifications EndpointController)", () => {
  let t: TestApp;
  const call = (
    method: "GET" | "DELETE",
    url: string,
    headers: Record<string, string> = ALICE,
  ): Promise<LightMyRequestResponse> => t.app.inject({ method, url, headers });
  const adminMessage = async (uid: string, short: string, long = "") => {
    const result = await t.services.notifications.adminMessage(uid, { short, long });
    assert.ok(result.ok);
    return result.id;
  };

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());
  beforeEach(async () => {
    await t.services.notifications.dismissAll("alice");
    await t.services.notifications.dismissAll("bob");
  });

  it("lists the user's notifications newest first, each element as Nextcloud renders it", async () => {
    const first = await adminMessage("alice", "Maintenance tonight", "From 22:00 to 23:00.");
    t.clock.advance(60);
    const second = await adminMessage("alice", "Done");
    await adminMessage("bob", "Not for alice");
    const response = await call("GET", `${V2}?format=json`);
    assert.equal(response.statusCode, 200, response.body);
    const { ocs } = response.json();
    assert.deepEqual(ocs.meta, { status: "ok", statuscode: 200, message: "OK" });
    assert.deepEqual(
      ocs.data.map((n: { notification_id: number }) => n.notification_id),
      [second, first],
    );
    const element = ocs.data[1];
    assert.deepEqual(Object.keys(element).sort(), [
      "actions",
      "app",
      "datetime",
      "icon",
      "link",
      "message",
      "messageRich",
      "messageRichParameters",
      "notification_id",
      "object_id",
      "object_type",
      "shouldNotify",
      "subject",
      "subjectRich",
      "subjectRichParameters",
      "user",
    ]);
    assert.equal(element.app, "admin_notifications");
    assert.equal(element.user, "alice");
    assert.equal(element.subject, "Maintenance tonight");
    assert.equal(element.message, "From 22:00 to 23:00.");
    assert.match(element.datetime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    assert.equal(new Date(element.datetime).getTime() / 1000 + 60, t.clock.nowSeconds());
    assert.equal(element.object_type, "admin_notifications");
    assert.equal(typeof element.object_id, "string");
    assert.deepEqual(element.actions, []);
    assert.match(element.icon, /^http:\/\/localhost:80\/.+\.svg$/);
  });

  it("answers an ETag, 304 for a matching If-None-Match, and a new tag once the list changes", async () => {
    await adminMessage("alice", "One");
    const first = await call("GET", `${V2}?format=json`);
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const unchanged = await call("GET", `${V2}?format=json`, { ...ALICE, "if-none-match": etag });
    assert.equal(unchanged.statusCode, 304);
    assert.equal(unchanged.body, "");
    await adminMessage("alice", "Two");
    const changed = await call("GET", `${V2}?format=json`, { ...ALICE, "if-none-match": etag });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
    accepted(await t.services.preferences.set("alice", "core", "lang", "de"));
    try {
      const german = await call("GET", `${V2}?format=json`, { ...ALICE, "if-none-match": String(changed.headers.etag) });
      assert.equal(german.statusCode, 200, "another language is another rendering: not 304");
    } finally {
      accepted(await t.services.preferences.delete("alice", "core", "lang"));
    }
  });

  it("answers OCS XML by default and the v1 envelope (statuscode 100) on /ocs/v1.php", async () => {
    await adminMessage("alice", "Hello <world> & co");
    const xml = await call("GET", V2);
    assert.equal(xml.statusCode, 200);
    assert.match(String(xml.headers["content-type"]), /^application\/xml/);
    assert.match(xml.body, /<statuscode>200<\/statuscode>/);
    assert.match(xml.body, /<subject>Hello &#60;world&#62; &#38; co<\/subject>/);
    const v1 = await call("GET", `${V1}?format=json`);
    assert.equal(v1.statusCode, 200);
    assert.equal(v1.json().ocs.meta.statuscode, 100);
    assert.equal(v1.json().ocs.data.length, 1);
  });

  it("gets one notification of the user's; another user's or a missing one is 404", async () => {
    const mine = await adminMessage("alice", "Mine");
    const bobs = await adminMessage("bob", "Bob's");
    const one = await call("GET", `${V2}/${mine}?format=json`);
    assert.equal(one.statusCode, 200);
    assert.equal(one.json().ocs.data.notification_id, mine);
    assert.equal(one.json().ocs.data.subject, "Mine");
    for (const id of [bobs, mine + bobs + 100, 0]) {
      const missing = await call("GET", `${V2}/${id}?format=json`);
      assert.equal(missing.statusCode, 404, String(id));
      assert.equal(missing.json().ocs.meta.statuscode, 404);
    }
    assert.equal((await call("GET", `${V2}/abc?format=json`)).statusCode, 404);
    const v1 = await call("GET", `${V1}/${bobs}?format=json`);
    assert.equal(v1.statusCode, 200, "OCS v1 answers HTTP 200 …");
    assert.equal(v1.json().ocs.meta.statuscode, 404, "… and says 404 in the envelope");
  });

  it("dismisses one notification of the user's; another user's stays where it is", async () => {
    const mine = await adminMessage("alice", "Mine");
    const other = await adminMessage("alice", "Other");
    const bobs = await adminMessage("bob", "Bob's");
    const deleted = await call("DELETE", `${V2}/${mine}?format=json`);
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual(deleted.json().ocs.data, []);
    assert.equal((await call("GET", `${V2}/${mine}?format=json`)).statusCode, 404);
    assert.equal((await call("GET", `${V2}/${other}?format=json`)).statusCode, 200);
    // As upstream: 200 for one the user does not have (dismissed elsewhere), and nothing deleted.
    assert.equal((await call("DELETE", `${V2}/${bobs}?format=json`)).statusCode, 200);
    assert.equal((await call("GET", `${V2}/${bobs}?format=json`, BOB)).statusCode, 200, "bob's notification is still there");
    assert.equal((await call("DELETE", `${V2}/0?format=json`)).statusCode, 404);
  });

  it("dismisses all of the user's notifications, and no one else's", async () => {
    await adminMessage("alice", "One");
    await adminMessage("alice", "Two");
    await adminMessage("bob", "Bob's");
    const deleted = await call("DELETE", `${V2}?format=json`);
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual((await call("GET", `${V2}?format=json`)).json().ocs.data, []);
    assert.equal((await call("GET", `${V2}?format=json`, BOB)).json().ocs.data.length, 1);
  });

  it("needs credentials (the bearer token's scope: producers.test.ts)", async () => {
    assert.equal((await t.app.inject({ method: "GET", url: `${V2}?format=json` })).statusCode, 401);
    assert.equal((await call("GET", `${V2}?format=json`, { authorization: basic("alice", "wrong") })).statusCode, 401);
  });

  it("a browser session's dismissal must prove its origin (OCS-APIREQUEST or the requesttoken)", async () => {
    const id = await adminMessage("alice", "Session");
    const browser = new FormClient(t.app);
    assert.equal((await browser.login("alice", "alice password")).statusCode, 303);
    const crossSite = await t.app.inject({ method: "DELETE", url: `${V2}/${id}`, headers: { cookie: browser.cookieHeader } });
    assert.equal(crossSite.statusCode, 403);
    assert.equal((await call("GET", `${V2}/${id}?format=json`)).statusCode, 200, "not dismissed");
    const own = await t.app.inject({
      method: "DELETE",
      url: `${V2}/${id}`,
      headers: { cookie: browser.cookieHeader, "ocs-apirequest": "true" },
    });
    assert.equal(own.statusCode, 200);
  });
});

describe("notifications and push: `notify_notification`", () => {
  let t: TestApp;
  let url: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
    url = await listenForPush(t.app);
  });
  after(() => t.close());

  it("is sent to the user's sockets when a notification is added and when one or all are dismissed", async () => {
    const alice = await connectAs(url, "alice", "alice password");
    const bob = await connectAs(url, "bob", "bob password");
    assert.equal(await alice.next(), "authenticated");
    assert.equal(await bob.next(), "authenticated");
    const added = await t.services.notifications.adminMessage("alice", { short: "Hello", long: "" });
    assert.ok(added.ok);
    assert.equal(await alice.next(), "notify_notification", "on add");
    // Within the hub's debounce window the next one is held to the window's end, then sent.
    const dismissed = await t.app.inject({
      method: "DELETE",
      url: `${V2}/${added.id}`,
      headers: { authorization: basic("alice", "alice password") },
    });
    assert.equal(dismissed.statusCode, 200);
    assert.equal(await alice.next(), "notify_notification", "on dismiss");
    await t.services.notifications.adminMessage("alice", { short: "Again", long: "" });
    assert.equal(await alice.next(), "notify_notification", "on add");
    const all = await t.app.inject({ method: "DELETE", url: V2, headers: { authorization: basic("alice", "alice password") } });
    assert.equal(all.statusCode, 200);
    assert.equal(await alice.next(), "notify_notification", "on dismissing all");
    await bob.roundTrip();
    await alice.close();
    await bob.close();
    assert.equal(await bob.next(), undefined, "bob heard nothing");
  });
});
