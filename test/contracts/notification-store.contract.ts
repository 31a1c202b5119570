import assert from "node:assert/strict";
import type { NewNotificationRecord } from "../../src/notifications/ports.js";
import type { Contract } from "./harness.js";

function record(uid: string, overrides: Partial<NewNotificationRecord> = {}): NewNotificationRecord {
  return {
    uid,
    kind: "app_password_created",
    params: { name: "Laptop" },
    objectType: "app_password",
    objectId: "1",
    createdAt: 1_800_000_000,
    ...overrides,
  };
}

/** notifications/ports.ts NotificationStore, case by case. */
export const notificationStoreContract: Contract = {
  "ids increase; newestOf lists the user's newest first, at most the limit, field for field": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const first = await s.notifications.insert(record(uid, { objectId: "a" }));
    const second = await s.notifications.insert(record(uid, { objectId: "b", kind: "admin_message", params: { subject: "Hi" } }));
    await s.notifications.insert(record(other));
    assert.ok(second > first);
    assert.deepEqual(await s.notifications.newestOf(uid, 1), [
      { ...record(uid, { objectId: "b", kind: "admin_message", params: { subject: "Hi" } }), id: second },
    ]);
    assert.deepEqual(
      (await s.notifications.newestOf(uid, 10)).map((n) => n.id),
      [second, first],
    );
  },

  "findOwn and deleteOwn answer only the owner": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const id = await s.notifications.insert(record(uid));
    assert.equal(await s.notifications.findOwn(other, id), undefined);
    assert.equal(await s.notifications.deleteOwn(other, id), false);
    assert.equal((await s.notifications.findOwn(uid, id))?.id, id);
    assert.equal(await s.notifications.deleteOwn(uid, id), true);
    assert.equal(await s.notifications.deleteOwn(uid, id), false);
    assert.equal(await s.notifications.findOwn(uid, id), undefined);
  },

  "deleteAbout deletes the user's notifications about one object; deleteAllOf the rest, counting": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    await s.notifications.insert(record(uid, { objectType: "client", objectId: "7" }));
    await s.notifications.insert(record(uid, { objectType: "client", objectId: "7" }));
    await s.notifications.insert(record(uid, { objectType: "client", objectId: "8" }));
    await s.notifications.insert(record(other, { objectType: "client", objectId: "7" }));
    assert.equal(await s.notifications.deleteAbout(uid, "client", "7"), 2);
    assert.equal((await s.notifications.newestOf(other, 10)).length, 1, "another user's stay");
    assert.equal(await s.notifications.deleteAllOf(uid), 1);
    assert.deepEqual(await s.notifications.newestOf(uid, 10), []);
  },

  "purge deletes what is older than the cutoff and each user's beyond their newest kept": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const old = await s.notifications.insert(record(uid, { createdAt: 100 }));
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await s.notifications.insert(record(uid, { createdAt: 1_900_000_000 })));
    const others = [];
    for (let i = 0; i < 2; i++) others.push(await s.notifications.insert(record(other, { createdAt: 1_900_000_000 })));
    const before = (await s.notifications.newestOf(uid, 100)).map((n) => n.id);
    assert.ok(before.includes(old));
    // No user of another case has more than 3 notifications or one this old: the count is exact.
    assert.equal(await s.notifications.purge(1000, 3), 2);
    assert.deepEqual(
      (await s.notifications.newestOf(uid, 100)).map((n) => n.id),
      ids.slice(1).reverse(),
    );
    assert.deepEqual(
      (await s.notifications.newestOf(other, 100)).map((n) => n.id),
      others.reverse(),
    );
  },

  "insert rejects a user without a row; a user's deletion deletes their notifications": async (s) => {
    await assert.rejects(s.notifications.insert(record(s.unique("nobody"))));
    const uid = await s.user();
    const id = await s.notifications.insert(record(uid));
    await s.users.delete(uid, 1);
    assert.equal(await s.notifications.findOwn(uid, id), undefined);
  },
};
