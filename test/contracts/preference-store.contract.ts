import assert from "node:assert/strict";
import type { Contract } from "./harness.js";

/** accounts/ports.ts PreferenceStore, case by case. */
export const preferenceStoreContract: Contract = {
  "put inserts or replaces by user, app and key; list orders by app then key, of one app when given": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    await s.preferences.put(uid, "b-app", "z", "1");
    await s.preferences.put(uid, "a-app", "y", "2");
    await s.preferences.put(uid, "b-app", "a", "3");
    await s.preferences.put(uid, "b-app", "z", "4");
    await s.preferences.put(other, "a-app", "y", "other");
    assert.equal(await s.preferences.get(uid, "b-app", "z"), "4");
    assert.equal(await s.preferences.get(uid, "b-app", "missing"), undefined);
    assert.deepEqual(await s.preferences.list(uid), [
      { app: "a-app", key: "y", value: "2" },
      { app: "b-app", key: "a", value: "3" },
      { app: "b-app", key: "z", value: "4" },
    ]);
    assert.deepEqual(await s.preferences.list(uid, "a-app"), [{ app: "a-app", key: "y", value: "2" }]);
  },

  "delete answers whether it was set; a user's deletion deletes their preferences": async (s) => {
    const uid = await s.user();
    await s.preferences.put(uid, "app", "key", "v");
    assert.equal(await s.preferences.delete(uid, "app", "key"), true);
    assert.equal(await s.preferences.delete(uid, "app", "key"), false);
    await s.preferences.put(uid, "app", "key", "v");
    await s.users.delete(uid, 1);
    assert.deepEqual(await s.preferences.list(uid), []);
  },

  "the user-row preferences are set on the user; clearing one already null, or of no user, is false": async (s) => {
    const uid = await s.user();
    await s.preferences.setOnUser(uid, "language", "fr");
    await s.preferences.setOnUser(uid, "timeZone", "Europe/Paris");
    const read = await s.users.find(uid);
    assert.deepEqual([read?.language, read?.timeZone], ["fr", "Europe/Paris"]);
    assert.equal(await s.preferences.clearOnUser(uid, "language"), true);
    assert.equal(await s.preferences.clearOnUser(uid, "language"), false);
    assert.equal((await s.users.find(uid))?.language, null);
    assert.equal(await s.preferences.clearOnUser(s.unique("nobody"), "timeZone"), false);
  },
};
