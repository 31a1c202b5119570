import assert from "node:assert/strict";
import type { Contract } from "./harness.js";

/** second-factor/ports.ts WebAuthnChallengeStore, case by case. */
export const challengeStoreContract: Contract = {
  "a challenge is consumed once, by its binding, before it expires": async (s) => {
    const challenge = s.unique("challenge-");
    await s.challenges.save(challenge, "register:alice", 200, 100);
    assert.equal(await s.challenges.consume(challenge, "register:bob", 150), false, "another binding");
    assert.equal(await s.challenges.consume(challenge, "register:alice", 200), false, "expired at its time");
    assert.equal(await s.challenges.consume(challenge, "register:alice", 199), true);
    assert.equal(await s.challenges.consume(challenge, "register:alice", 199), false, "used once");
  },

  "of two concurrent answers with one challenge exactly one wins": async (s) => {
    const challenge = s.unique("challenge-");
    await s.challenges.save(challenge, "login", 200, 100);
    const results = await Promise.all([
      s.challenges.consume(challenge, "login", 150),
      s.challenges.consume(challenge, "login", 150),
    ]);
    assert.deepEqual(results.sort(), [false, true]);
  },

  "saving forgets the challenges past their expiry": async (s) => {
    const expired = s.unique("challenge-");
    await s.challenges.save(expired, "login", 1000, 900);
    await s.challenges.save(s.unique("challenge-"), "login", 3000, 1000);
    assert.equal(await s.challenges.consume(expired, "login", 0), false, "gone, whatever the clock says now");
  },
};
