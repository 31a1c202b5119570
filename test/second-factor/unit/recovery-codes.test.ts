import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../../../src/clock.js";
import { RECOVERY_CODE_COUNT } from "../../../src/second-factor/domain/recovery-codes.js";
import { RecoveryCodes } from "../../../src/second-factor/recovery-codes.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";

async function setup() {
  const stores = memoryStores();
  const trail = new RecordedTrail();
  const recoveryCodes = new RecoveryCodes(stores.recoveryCodes, new ManualClock(1_800_000_010), trail);
  await addUsers(stores, "alice", "bob");
  return { stores, trail, recoveryCodes };
}

describe("second factor: recovery codes, on memory stores", () => {
  it("a new set voids the old one; each code works once, for its own user only", async () => {
    const { recoveryCodes } = await setup();
    const old = await recoveryCodes.regenerate("alice");
    const codes = await recoveryCodes.regenerate("alice");
    assert.equal(codes.length, RECOVERY_CODE_COUNT);
    assert.equal(await recoveryCodes.verify("alice", old[0] ?? ""), false);
    assert.equal(await recoveryCodes.verify("alice", codes[0] ?? ""), true);
    assert.equal(await recoveryCodes.verify("alice", codes[0] ?? ""), false);
    assert.deepEqual(await recoveryCodes.counts("alice"), { total: RECOVERY_CODE_COUNT, unused: RECOVERY_CODE_COUNT - 1 });
    assert.equal(await recoveryCodes.verify("bob", codes[1] ?? ""), false, "another user's code");
  });

  it("an empty answer is no code", async () => {
    const { recoveryCodes } = await setup();
    await recoveryCodes.regenerate("alice");
    assert.equal(await recoveryCodes.verify("alice", "   "), false);
  });

  it("codes are on while any exists, and offered only while one is unused", async () => {
    const { recoveryCodes, stores } = await setup();
    await stores.recoveryCodes.replace("alice", ["only"], 1);
    await stores.recoveryCodes.use("alice", "only", 2);
    assert.equal(await recoveryCodes.isEnabledFor("alice"), true);
    assert.equal(await recoveryCodes.isOfferedTo("alice"), false);
  });

  it("disabling records and tells only when there were codes", async () => {
    const { recoveryCodes, trail } = await setup();
    assert.equal(await recoveryCodes.disableFor("alice"), false);
    await recoveryCodes.regenerate("alice");
    assert.equal(await recoveryCodes.disableFor("alice"), true);
    assert.deepEqual(trail.kinds(), ["second_factor.enabled", "second_factor.disabled"]);
  });
});
