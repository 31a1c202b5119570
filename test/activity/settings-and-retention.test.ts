import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { basicAuthFor, fileEvent, get, publish } from "./support.js";

const API = "/index.php/apps/activity/api/v2/activity";
const SETTINGS = "/index.php/apps/activity/api/v2/settings";

describe("stream settings drive the 204 rule", () => {
  let t: TestApp;
  let carol: string;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    carol = await basicAuthFor(t, "carol");
    await publish(t, [
      fileEvent("carol"),
      fileEvent("carol", { app: "files_sharing", type: "shared", subject: "shared_link_self" }),
    ]);
  });
  after(() => t.close());

  const put = (stream: Record<string, unknown>, auth = carol) =>
    t.app.inject({
      method: "PUT",
      url: SETTINGS,
      headers: { authorization: auth, "content-type": "application/json" },
      payload: { stream },
    });

  it("reads the defaults: every type on", async () => {
    const response = await get(t, SETTINGS, carol);
    assert.equal(response.statusCode, 200);
    const { stream } = JSON.parse(response.body);
    assert.equal(stream.file_changed, true);
    assert.equal(stream.security, true);
    assert.equal((await get(t, SETTINGS)).statusCode, 403);
  });

  it("answers 204 for a filter whose types are all switched off, and hides those types elsewhere", async () => {
    const off = await put({ file_created: false, file_changed: false, file_deleted: false, file_restored: false });
    assert.equal(off.statusCode, 200);
    assert.equal(JSON.parse(off.body).stream.file_changed, false);
    const files = await get(t, `${API}/files`, carol);
    assert.equal(files.statusCode, 204);
    assert.equal(files.body, "");
    const all = await get(t, API, carol);
    assert.equal(all.statusCode, 200);
    assert.deepEqual(
      JSON.parse(all.body).ocs.data.map((e: any) => e.type),
      ["shared"],
    );
    assert.equal((await get(t, `${API}/files_sharing`, carol)).statusCode, 200);
  });

  it("answers 204 for every filter when no type is selected", async () => {
    const { stream } = JSON.parse((await get(t, SETTINGS, carol)).body);
    await put(Object.fromEntries(Object.keys(stream).map((k) => [k, false])));
    for (const filter of ["all", "self", "by", "files_sharing", "security"]) {
      assert.equal((await get(t, `${API}/${filter}`, carol)).statusCode, 204, filter);
    }
    await put(Object.fromEntries(Object.keys(stream).map((k) => [k, true])));
    assert.equal((await get(t, API, carol)).statusCode, 200);
  });

  it("refuses unknown types and non-boolean values with 400", async () => {
    assert.equal((await put({ bogus: true })).statusCode, 400);
    assert.equal((await put({ shared: "yes" })).statusCode, 400);
  });

  it("changes the settings from the personal settings page (CSRF-checked form)", async () => {
    const browser = new FormClient(t.app);
    await browser.login("carol", "carol password");
    const page = await browser.get("/index.php/settings/personal");
    assert.match(page.body, /id="activity-stream-settings"/);
    assert.match(page.body, /name="stream_shared" value="1" checked/);
    const forged = await browser.post("/index.php/apps/activity/settings", { requesttoken: "forged" });
    assert.equal(forged.statusCode, 403);
    // Only `shared` ticked: everything else goes off.
    const saved = await browser.post("/index.php/apps/activity/settings", {
      requesttoken: requestTokenOf(page.body),
      stream_shared: "1",
    });
    assert.equal(saved.statusCode, 200);
    assert.match(saved.body, /stream settings were saved/);
    const { stream } = JSON.parse((await get(t, SETTINGS, carol)).body);
    assert.equal(stream.shared, true);
    assert.equal(stream.file_changed, false);
    assert.equal((await get(t, `${API}/security`, carol)).statusCode, 204);
  });

  it("refuses a session PUT without the CSRF token", async () => {
    const browser = new FormClient(t.app);
    await browser.login("carol", "carol password");
    const response = await t.app.inject({
      method: "PUT",
      url: SETTINGS,
      headers: { cookie: browser.cookieHeader, "content-type": "application/json" },
      payload: { stream: { shared: false } },
    });
    assert.equal(response.statusCode, 403);
  });
});

describe("retention (activity_expire_days, daily job, occ activity:expire)", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "dora" }));
  });
  after(() => t.close());

  it("the daily job deletes activities older than 365 days by default, and keeps the rest", async () => {
    const now = t.clock.nowSeconds();
    await publish(t, [
      fileEvent("dora", { datetime: now - 366 * 86_400 }),
      fileEvent("dora", { datetime: now - 364 * 86_400 }),
      fileEvent("dora", { datetime: now }),
    ]);
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("activity:expire"));
    assert.equal(await t.services.activity.store.countForUser("dora"), 2);
    assert.ok(!(await t.services.jobs.runDueJobs()).includes("activity:expire"), "not due again within the day");
    t.clock.advance(2 * 86_400);
    assert.ok((await t.services.jobs.runDueJobs()).includes("activity:expire"), "due again after a day");
    assert.equal(await t.services.activity.store.countForUser("dora"), 1, "the 364-day-old one crossed 365 days");
  });

  it("honours activity_expire_days and is also run by ./occ activity:expire", async () => {
    const now = t.clock.nowSeconds();
    await publish(t, [fileEvent("dora", { datetime: now - 10 * 86_400 }), fileEvent("dora", { datetime: now - 2 * 86_400 })]);
    t.services.settings.set("activity_expire_days", 5);
    assert.equal(await t.services.activity.expire(), 1);
    t.services.settings.set("activity_expire_days", 1);
    // The CLI builds its own services on the system clock (the ManualClock's rows lie in its
    // future), so give it one row that is old on any clock.
    await publish(t, fileEvent("dora", { datetime: 1000 }));
    const before = await t.services.activity.store.countForUser("dora");
    const result = await runOccInProcess(["activity:expire"], t.testStorage);
    assert.equal(result.code, 0);
    assert.equal(result.out, "Deleted 1 activities older than 1 days\n");
    assert.equal(await t.services.activity.store.countForUser("dora"), before - 1);
  });

  it("deleting a user deletes their stream (ON DELETE CASCADE)", async () => {
    accepted(await t.services.users.create({ uid: "gone" }));
    await publish(t, fileEvent("gone"));
    accepted(await t.services.users.delete("gone"));
    assert.equal(await t.services.activity.store.countForUser("gone"), 0);
  });
});
