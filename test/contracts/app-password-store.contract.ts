import assert from "node:assert/strict";
import type { Contract } from "./harness.js";

/** accounts/ports.ts AppPasswordStore, case by case. */
export const appPasswordStoreContract: Contract = {
  "an inserted app password is found by its digest, never used yet, and listed in creation order": async (s) => {
    const uid = await s.user();
    const [first, second] = [s.unique("digest-"), s.unique("digest-")];
    const firstId = await s.appPasswords.insert({ uid, name: "Laptop", tokenHash: first, createdAt: 10 });
    const secondId = await s.appPasswords.insert({ uid, name: "Phone", tokenHash: second, createdAt: 5 });
    assert.ok(secondId > firstId, "ids increase");
    assert.deepEqual(await s.appPasswords.findByTokenHash(first), { id: firstId, uid, lastUsedAt: null });
    assert.deepEqual(await s.appPasswords.listOf(uid), [
      { id: firstId, uid, name: "Laptop", createdAt: 10, lastUsedAt: null },
      { id: secondId, uid, name: "Phone", createdAt: 5, lastUsedAt: null },
    ]);
    assert.equal(await s.appPasswords.findByTokenHash(s.unique("absent")), undefined);
  },

  "markUsed records the use on the app password and as its user's last sign-in": async (s) => {
    const uid = await s.user();
    const tokenHash = s.unique("digest-");
    const id = await s.appPasswords.insert({ uid, name: "Sync", tokenHash, createdAt: 10 });
    await s.appPasswords.markUsed(id, 77);
    assert.equal((await s.appPasswords.findByTokenHash(tokenHash))?.lastUsedAt, 77);
    assert.equal((await s.users.findListing(uid))?.lastLoginAt, 77);
  },

  "deleteOwn deletes only the owner's app password; deleteAllOf counts what went": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    const id = await s.appPasswords.insert({ uid, name: "A", tokenHash: s.unique("digest-"), createdAt: 1 });
    await s.appPasswords.insert({ uid, name: "B", tokenHash: s.unique("digest-"), createdAt: 1 });
    const othersId = await s.appPasswords.insert({ uid: other, name: "C", tokenHash: s.unique("digest-"), createdAt: 1 });
    assert.equal(await s.appPasswords.deleteOwn(other, id), false);
    assert.equal(await s.appPasswords.deleteOwn(uid, id), true);
    assert.equal(await s.appPasswords.deleteOwn(uid, id), false);
    assert.equal(await s.appPasswords.deleteAllOf(uid), 1);
    assert.deepEqual(await s.appPasswords.listOf(uid), []);
    assert.deepEqual(
      (await s.appPasswords.listOf(other)).map((p) => p.id),
      [othersId],
    );
  },

  "a user's deletion deletes their app passwords": async (s) => {
    const uid = await s.user();
    const tokenHash = s.unique("digest-");
    await s.appPasswords.insert({ uid, name: "A", tokenHash, createdAt: 1 });
    await s.users.delete(uid, 1);
    assert.equal(await s.appPasswords.findByTokenHash(tokenHash), undefined);
  },
};
