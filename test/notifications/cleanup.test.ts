import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EXPIRE_DAYS, KEEP_PER_USER } from "../../src/notifications/service.js";
import { accepted } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";
import { testDatabaseDialect } from "../support/storage.js";

/** The daily job's rule (docs/decisions.md "Notifications"): none older than EXPIRE_DAYS, at most KEEP_PER_USER per user. */
describe(`notifications cleanup (${testDatabaseDialect})`, () => {
  let t: TestServices;

  before(async () => {
    t = await createTestServices();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());

  it("keeps each user's newest KEEP_PER_USER and deletes what is older than EXPIRE_DAYS", async () => {
    const { notifications } = t.services;
    const old = await notifications.adminMessage("bob", { short: "Old", long: "" });
    assert.ok(old.ok);
    t.clock.advance(EXPIRE_DAYS * 86_400 - 10);
    const recent = await notifications.adminMessage("bob", { short: "Recent", long: "" });
    assert.ok(recent.ok);
    for (let i = 0; i < KEEP_PER_USER + 3; i++) await notifications.adminMessage("alice", { short: `Message ${i}`, long: "" });
    t.clock.advance(11);
    const deleted = await notifications.purge();
    assert.equal(deleted, 4, "bob's old one and alice's three oldest");
    assert.equal(await notifications.find("bob", old.id), undefined);
    assert.ok(await notifications.find("bob", recent.id));
    const newest = await notifications.newest("alice");
    assert.equal(newest[0]?.params.subject, `Message ${KEEP_PER_USER + 2}`);
    assert.equal(await notifications.dismissAll("alice"), KEEP_PER_USER);
  });

  it("runs as a daily background job", async () => {
    const { jobs, notifications } = t.services;
    await jobs.runDueJobs();
    const old = await notifications.adminMessage("alice", { short: "Old", long: "" });
    assert.ok(old.ok);
    t.clock.advance(EXPIRE_DAYS * 86_400 + 1);
    assert.ok((await jobs.runDueJobs()).includes("notifications:purge"));
    assert.equal(await notifications.find("alice", old.id), undefined);
    assert.ok(!(await jobs.runDueJobs()).includes("notifications:purge"), "not again the same day");
  });
});
