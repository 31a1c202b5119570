import assert from "node:assert/strict";
import type { Contract } from "./harness.js";

/** second-factor/ports.ts RecoveryCodeStore, case by case. */
export const recoveryCodeStoreContract: Contract = {
  "replace voids the old set at once; counts tell total and unused": async (s) => {
    const uid = await s.user();
    await s.recoveryCodes.replace(uid, ["h1", "h2", "h3"], 10);
    assert.equal(await s.recoveryCodes.use(uid, "h1", 11), true);
    assert.deepEqual(await s.recoveryCodes.counts(uid), { total: 3, unused: 2 });
    await s.recoveryCodes.replace(uid, ["n1", "n2"], 12);
    assert.deepEqual(await s.recoveryCodes.counts(uid), { total: 2, unused: 2 });
    assert.equal(await s.recoveryCodes.use(uid, "h2", 13), false, "a code of the old set");
  },

  "a code is used once: of two concurrent uses exactly one wins; another user's code is not theirs": async (s) => {
    const [uid, other] = [await s.user(), await s.user()];
    await s.recoveryCodes.replace(uid, ["c1"], 10);
    assert.equal(await s.recoveryCodes.use(other, "c1", 11), false);
    const results = await Promise.all([s.recoveryCodes.use(uid, "c1", 11), s.recoveryCodes.use(uid, "c1", 11)]);
    assert.deepEqual(results.sort(), [false, true]);
    assert.equal(await s.recoveryCodes.use(uid, "c1", 12), false);
    assert.deepEqual(await s.recoveryCodes.counts(uid), { total: 1, unused: 0 });
  },

  "deleteAll answers whether there was a code; a user's deletion deletes the codes": async (s) => {
    const uid = await s.user();
    assert.deepEqual(await s.recoveryCodes.counts(uid), { total: 0, unused: 0 });
    await s.recoveryCodes.replace(uid, ["x"], 1);
    assert.equal(await s.recoveryCodes.deleteAll(uid), true);
    assert.equal(await s.recoveryCodes.deleteAll(uid), false);
    await s.recoveryCodes.replace(uid, ["y"], 2);
    await s.users.delete(uid, 3);
    assert.deepEqual(await s.recoveryCodes.counts(uid), { total: 0, unused: 0 });
  },
};
