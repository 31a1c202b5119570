import assert from "node:assert/strict";
import type { Contract } from "./harness.js";
import { session } from "./session-store.contract.js";

/** accounts/ports.ts PasswordConfirmationStore (on the sessions table), case by case. */
export const passwordConfirmationStoreContract: Contract = {
  "confirmedAt is the later of the login and the last confirmation; undefined without a session": async (s) => {
    const uid = await s.user();
    const written = session(s, uid, { createdAt: 1000 });
    await s.sessions.insert(written);
    assert.equal(await s.passwordConfirmations.confirmedAt(written.idHash), 1000);
    await s.passwordConfirmations.record(written.idHash, 1700);
    assert.equal(await s.passwordConfirmations.confirmedAt(written.idHash), 1700);
    await s.passwordConfirmations.record(written.idHash, 900);
    assert.equal(await s.passwordConfirmations.confirmedAt(written.idHash), 1000, "never before the login");
    const absent = s.unique("absent");
    await s.passwordConfirmations.record(absent, 1);
    assert.equal(await s.passwordConfirmations.confirmedAt(absent), undefined);
  },
};
