import assert from "node:assert/strict";
import type { PasskeyRecord } from "../../src/second-factor/ports.js";
import type { Contract, ContractStores } from "./harness.js";

export function passkey(s: ContractStores, uid: string, overrides: Partial<PasskeyRecord> = {}): PasskeyRecord {
  return {
    id: s.unique("credential-"),
    uid,
    name: "Key",
    publicKey: "cose-key",
    counter: 0,
    transports: ["usb", "nfc"],
    createdAt: 100,
    lastUsedAt: null,
    ...overrides,
  };
}

/** second-factor/ports.ts PasskeyStore, case by case. */
export const passkeyStoreContract: Contract = {
  "add refuses an id that exists and writes nothing; find and listFor read the records back": async (s) => {
    const uid = await s.user();
    const later = passkey(s, uid, { createdAt: 200, name: "Later" });
    const earlier = passkey(s, uid, { createdAt: 100, transports: [] });
    assert.equal(await s.passkeys.add(later), true);
    assert.equal(await s.passkeys.add(earlier), true);
    assert.equal(await s.passkeys.add({ ...later, uid: await s.user(), name: "Copy" }), false);
    assert.deepEqual(await s.passkeys.find(later.id), later);
    assert.deepEqual(await s.passkeys.listFor(uid), [earlier, later], "ordered by creation");
    assert.equal(await s.passkeys.find(s.unique("absent")), undefined);
    await assert.rejects(s.passkeys.add(passkey(s, s.unique("nobody"))), "the user must exist");
  },

  "recordUse moves the counter from the one seen: of two uses that saw one counter, exactly one wins": async (s) => {
    const uid = await s.user();
    const key = passkey(s, uid, { counter: 5 });
    await s.passkeys.add(key);
    const results = await Promise.all([s.passkeys.recordUse(key.id, 5, 6, 300), s.passkeys.recordUse(key.id, 5, 7, 301)]);
    assert.deepEqual([...results].sort(), [false, true]);
    const read = await s.passkeys.find(key.id);
    assert.equal(read?.counter, results[0] ? 6 : 7);
    assert.equal(read?.lastUsedAt, results[0] ? 300 : 301);
    assert.equal(await s.passkeys.recordUse(key.id, 5, 8, 302), false, "the counter moved");
  },

  "remove takes only the owner's passkey; removeAll answers whether there was one; a user's deletion deletes them": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const [a, b] = [passkey(s, uid), passkey(s, uid)];
    await s.passkeys.add(a);
    await s.passkeys.add(b);
    assert.equal(await s.passkeys.remove(other, a.id), false);
    assert.equal(await s.passkeys.remove(uid, a.id), true);
    assert.equal(await s.passkeys.remove(uid, a.id), false);
    assert.equal(await s.passkeys.removeAll(uid), true);
    assert.equal(await s.passkeys.removeAll(uid), false);
    const c = passkey(s, other);
    await s.passkeys.add(c);
    await s.users.delete(other, 1);
    assert.equal(await s.passkeys.find(c.id), undefined);
  },
};
