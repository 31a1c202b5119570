import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ManualClock } from "../../../src/clock.js";
import { TotpFactor } from "../../../src/second-factor/totp.js";
import { plainSealer } from "../../oauth/unit/fakes.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";
import { referenceTotp } from "../reference-totp.js";

async function setup() {
  const stores = memoryStores();
  const clock = new ManualClock(1_800_000_010);
  const trail = new RecordedTrail();
  const totp = new TotpFactor(stores.totp, plainSealer, clock, trail);
  const told: string[] = [];
  totp.changes.observe(async (uid, provider, change) => {
    told.push(`${uid} ${provider} ${change}`);
  });
  await addUsers(stores, "alice");
  const code = (seconds = clock.nowSeconds()) =>
    referenceTotp(pendingOrEnabledSecret(stores.totp.rows.get("alice")?.sealedSecret), seconds);
  return { stores, clock, trail, totp, told, code };
}

function pendingOrEnabledSecret(sealed: string | undefined): string {
  assert.ok(sealed, "an enrolment exists");
  return plainSealer.decrypt(sealed);
}

describe("second factor: the rules of TOTP, on memory stores", () => {
  it("the secret is stored sealed, and the pending secret is shown until it is confirmed", async () => {
    const { totp, stores } = await setup();
    const secret = await totp.begin("alice");
    assert.ok(secret);
    assert.equal(stores.totp.rows.get("alice")?.sealedSecret, plainSealer.encrypt(secret));
    assert.equal(await totp.pendingSecret("alice"), secret);
    assert.equal(await totp.isEnabledFor("alice"), false, "pending is not on");
    assert.equal(await totp.isOfferedTo("alice"), false);
  });

  it("a wrong code leaves the enrolment pending, records nothing and tells nobody", async () => {
    const { totp, trail, told, code } = await setup();
    await totp.begin("alice");
    const wrong = code() === "000000" ? "111111" : "000000";
    assert.equal(await totp.confirm("alice", wrong), false);
    assert.equal(await totp.isEnabledFor("alice"), false);
    assert.deepEqual([trail.kinds(), told], [[], []]);
  });

  it("a correct code enables it once: recorded, told, and no longer pending", async () => {
    const { totp, trail, told, code } = await setup();
    await totp.begin("alice");
    assert.equal(await totp.confirm("alice", code()), true);
    assert.equal(await totp.isEnabledFor("alice"), true);
    assert.equal(await totp.pendingSecret("alice"), undefined);
    assert.equal(await totp.confirm("alice", code()), false, "enabled already");
    assert.equal(await totp.begin("alice"), undefined, "no new secret while TOTP is on");
    assert.deepEqual(trail.kinds(), ["second_factor.enabled"]);
    assert.deepEqual(told, ["alice totp added"]);
  });

  it("a code is accepted once: the code that enabled it, or one already used, is refused (RFC 6238 §5.2)", async () => {
    const { totp, clock, code } = await setup();
    await totp.begin("alice");
    const enabling = code();
    await totp.confirm("alice", enabling);
    assert.equal(await totp.verify("alice", enabling), false);
    clock.advance(30);
    const next = code();
    assert.equal(await totp.verify("alice", next), true);
    assert.equal(await totp.verify("alice", next), false);
    assert.equal(await totp.verify("alice", code(clock.nowSeconds() - 30)), false, "an earlier step than the last used");
  });

  it("a pending enrolment verifies nothing", async () => {
    const { totp, code } = await setup();
    await totp.begin("alice");
    assert.equal(await totp.verify("alice", code()), false);
  });

  it("disabling reports, records and tells only when TOTP was on; cancel drops only a pending enrolment", async () => {
    const { totp, trail, told, code } = await setup();
    await totp.begin("alice");
    await totp.cancel("alice");
    assert.equal(await totp.pendingSecret("alice"), undefined);
    await totp.begin("alice");
    assert.equal(await totp.disableFor("alice"), false, "a pending enrolment was not on");
    assert.deepEqual([trail.kinds(), told], [[], []]);
    await totp.begin("alice");
    await totp.confirm("alice", code());
    await totp.cancel("alice");
    assert.equal(await totp.isEnabledFor("alice"), true, "cancel leaves an enabled one");
    assert.equal(await totp.disableFor("alice"), true);
    assert.deepEqual(trail.kinds(), ["second_factor.enabled", "second_factor.disabled"]);
    assert.deepEqual(told, ["alice totp added", "alice totp removed"]);
  });
});
