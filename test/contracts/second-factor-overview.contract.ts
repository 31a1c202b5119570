import assert from "node:assert/strict";
import type { Contract } from "./harness.js";
import { passkey } from "./passkey-store.contract.js";

/** second-factor/ports.ts SecondFactorOverview, case by case. */
export const overviewContract: Contract = {
  "each user's providers on: an enabled TOTP, any recovery code, any passkey; only the users asked": async (s) => {
    const [all, pending, none] = [await s.user(), await s.user(), await s.user()];
    await s.totp.savePending(all, "sealed", 1);
    await s.totp.enable(all, "sealed", 1, 1);
    await s.recoveryCodes.replace(all, ["h"], 1);
    await s.recoveryCodes.use(all, "h", 2);
    await s.passkeys.add(passkey(s, all));
    await s.totp.savePending(pending, "sealed", 1);
    const byUser = await s.secondFactorOverview.enabledByUser([all, pending, none]);
    assert.deepEqual([...byUser.entries()], [[all, ["totp", "backup_codes", "webauthn"]]]);
    assert.deepEqual(await s.secondFactorOverview.enabledByUser([]), new Map());
    assert.deepEqual((await s.secondFactorOverview.enabledByUser()).get(all), ["totp", "backup_codes", "webauthn"]);
  },
};
