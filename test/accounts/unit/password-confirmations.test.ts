import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PASSWORD_CONFIRMATION_WINDOW_SECONDS, PasswordConfirmations } from "../../../src/accounts/password-confirmation.js";
import { Sessions } from "../../../src/accounts/sessions.js";
import { ManualClock } from "../../../src/clock.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";

async function setup() {
  const stores = memoryStores();
  await addUsers(stores, "alice");
  const clock = new ManualClock(1_800_000_000);
  const sessions = new Sessions(stores.sessions, clock, () => 3600);
  return { clock, sessions, confirmations: new PasswordConfirmations(stores.passwordConfirmations, clock) };
}

describe("accounts: password confirmations, on memory stores", () => {
  it("the login counts as a confirmation, for PASSWORD_CONFIRMATION_WINDOW_SECONDS", async () => {
    const { sessions, confirmations, clock } = await setup();
    const session = await sessions.start("alice");
    assert.equal(await confirmations.isRecent(session), true);
    clock.advance(PASSWORD_CONFIRMATION_WINDOW_SECONDS);
    assert.equal(await confirmations.isRecent(session), false);
    await confirmations.record(session);
    assert.equal(await confirmations.isRecent(session), true);
  });

  it("no session is never recently confirmed", async () => {
    const { confirmations } = await setup();
    assert.equal(await confirmations.isRecent({ token: "no-such-session" }), false);
  });
});
