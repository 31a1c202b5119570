import assert from "node:assert/strict";
import type { Contract } from "./harness.js";

/** second-factor/ports.ts TotpStore, case by case. */
export const totpStoreContract: Contract = {
  "a pending enrolment replaces a pending one; none is undefined": async (s) => {
    const uid = await s.user();
    assert.equal(await s.totp.find(uid), undefined);
    assert.equal(await s.totp.savePending(uid, "sealed-1", 10), true);
    assert.equal(await s.totp.savePending(uid, "sealed-2", 20), true);
    assert.deepEqual(await s.totp.find(uid), { sealedSecret: "sealed-2", enabled: false, lastUsedStep: null, createdAt: 20 });
  },

  "enable takes only the pending secret named, records the step, and then a new pending one is refused": async (s) => {
    const uid = await s.user();
    await s.totp.savePending(uid, "sealed-new", 10);
    assert.equal(await s.totp.enable(uid, "sealed-replaced", 5, 30), false, "not the pending secret");
    assert.equal(await s.totp.enable(uid, "sealed-new", 5, 30), true);
    assert.equal(await s.totp.enable(uid, "sealed-new", 6, 31), false, "enabled already");
    assert.deepEqual(await s.totp.find(uid), { sealedSecret: "sealed-new", enabled: true, lastUsedStep: 5, createdAt: 30 });
    assert.equal(await s.totp.savePending(uid, "sealed-other", 40), false);
    assert.equal((await s.totp.find(uid))?.sealedSecret, "sealed-new", "nothing written");
    assert.equal(await s.totp.enable(await s.user(), "sealed-new", 5, 30), false, "no enrolment at all");
  },

  "useStep accepts only a step later than the last, once, and only when enabled": async (s) => {
    const uid = await s.user();
    await s.totp.savePending(uid, "sealed", 10);
    assert.equal(await s.totp.useStep(uid, 9), false, "pending");
    await s.totp.enable(uid, "sealed", 5, 30);
    assert.equal(await s.totp.useStep(uid, 5), false, "the step that enabled it");
    assert.equal(await s.totp.useStep(uid, 4), false);
    const [a, b] = await Promise.all([s.totp.useStep(uid, 6), s.totp.useStep(uid, 6)]);
    assert.deepEqual([a, b].sort(), [false, true], "of two uses of one step, exactly one wins");
    assert.equal((await s.totp.find(uid))?.lastUsedStep, 6);
  },

  "delete answers whether there was an enrolment; a user's deletion deletes it": async (s) => {
    const uid = await s.user();
    await s.totp.savePending(uid, "sealed", 10);
    await s.totp.enable(uid, "sealed", 1, 10);
    assert.equal(await s.totp.delete(uid), true);
    assert.equal(await s.totp.delete(uid), false);
    assert.equal(await s.totp.savePending(uid, "again", 11), true, "enrolment starts over");
    await s.users.delete(uid, 1);
    assert.equal(await s.totp.find(uid), undefined);
  },
};
