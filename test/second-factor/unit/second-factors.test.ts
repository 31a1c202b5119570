import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../../../src/clock.js";
import { RecoveryCodes } from "../../../src/second-factor/recovery-codes.js";
import { SecondFactors } from "../../../src/second-factor/service.js";
import { TotpFactor } from "../../../src/second-factor/totp.js";
import { plainSealer } from "../../oauth/unit/fakes.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";
import { referenceTotp } from "../reference-totp.js";

const ORIGIN = { origin: "https://cloud.example" };

async function setup() {
  const stores = memoryStores();
  const clock = new ManualClock(1_800_000_010);
  const trail = new RecordedTrail();
  const totp = new TotpFactor(stores.totp, plainSealer, clock, trail);
  const recoveryCodes = new RecoveryCodes(stores.recoveryCodes, clock, trail);
  let enforced = false;
  // Registered out of order: the registry lists them in the ids' order.
  const factors = new SecondFactors(
    [recoveryCodes, totp],
    { enforced: () => enforced, setEnforced: (on) => (enforced = on) },
    stores.secondFactorOverview,
  );
  await addUsers(stores, "alice", "bob");
  const enableTotp = async (uid: string) => {
    const secret = await totp.begin(uid);
    assert.ok(secret);
    assert.ok(await totp.confirm(uid, referenceTotp(secret, clock.nowSeconds())));
  };
  return { stores, clock, trail, totp, recoveryCodes, factors, enableTotp };
}

describe("second factor: the registry's rules across providers", () => {
  it("recovery codes alone do not make a two-factor user: only a primary factor does", async () => {
    const { factors, recoveryCodes, enableTotp } = await setup();
    await recoveryCodes.regenerate("alice");
    assert.equal(await factors.hasSecondFactor("alice"), false);
    assert.equal(await factors.stepAfterPassword("alice"), null);
    await enableTotp("alice");
    assert.equal(await factors.hasSecondFactor("alice"), true);
    assert.equal(await factors.stepAfterPassword("alice"), "second_factor");
  });

  it("enforcement asks a user without a factor to set one up, and refuses the password alone", async () => {
    const { factors } = await setup();
    assert.equal(await factors.required("bob"), false);
    factors.setEnforced(true);
    assert.equal(await factors.stepAfterPassword("bob"), "second_factor_setup");
    assert.equal(await factors.required("bob"), true);
  });

  it("providers are listed in the ids' order whatever order they were registered in", async () => {
    const { factors, enableTotp } = await setup();
    await enableTotp("alice");
    assert.deepEqual(await factors.states("alice"), [
      { id: "totp", enabled: true },
      { id: "backup_codes", enabled: false },
    ]);
    assert.equal(factors.provider("webauthn"), undefined, "not registered here");
    assert.equal(await factors.disable("alice", "webauthn"), undefined);
  });

  it("an answer counts only for a provider the user is offered", async () => {
    const { factors, recoveryCodes, stores } = await setup();
    const codes = await recoveryCodes.regenerate("alice");
    assert.deepEqual(await factors.offeredTo("alice"), ["backup_codes"]);
    assert.equal(await factors.verify("alice", "totp", "123456", ORIGIN), false);
    assert.equal(await factors.verify("alice", "backup_codes", codes[0] ?? "", ORIGIN), true);
    await stores.recoveryCodes.replace("alice", [], 3);
    assert.equal(await factors.verify("alice", "backup_codes", codes[1] ?? "", ORIGIN), false);
  });

  it("every provider's change reaches the registry's observers", async () => {
    const { factors, recoveryCodes, enableTotp } = await setup();
    const told: string[] = [];
    factors.observeChanges(async (uid, provider, change) => {
      told.push(`${uid} ${provider} ${change}`);
    });
    await enableTotp("alice");
    await recoveryCodes.regenerate("alice");
    await factors.disable("alice", "totp");
    assert.deepEqual(told, ["alice totp added", "alice backup_codes added", "alice totp removed"]);
  });
});
