import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  LOGIN_THROTTLE,
  loginUserBucket,
  SECOND_FACTOR_THROTTLE,
  secondFactorUserBucket,
} from "../../../src/security/domain/throttle-policy.js";
import { PASSWORD, SignInWorld, user } from "./sign-in-fakes.js";

const PENDING = { ...new SignInWorld().session("alice", "second_factor"), token: "pending-session" };

describe("sign-in with a password", () => {
  it("a right password for an enabled account starts a session, ends the one the browser came with, and clears the user's failures", async () => {
    const world = new SignInWorld();
    const result = await world.signIn.withPassword("alice", PASSWORD, world.context("planted-session"));
    assert.ok(result.ok);
    assert.equal(result.value.pendingStep, null);
    assert.equal(result.value.session.uid, "alice");
    assert.deepEqual(world.ended, ["planted-session"]);
    assert.deepEqual(world.lastOutcome(), { kind: "success", reset: [loginUserBucket("alice")] });
    assert.deepEqual(
      world.audited.map(({ kind, event }) => [kind, event?.detail]),
      [["sign_in.succeeded", { factor: "password" }]],
    );
    assert.ok(world.logged.some((line) => line.level === "info" && line.details.event === "login"));
  });

  it("a wrong password is refused as a guess: counted as a failure, audited and logged at warn", async () => {
    const world = new SignInWorld();
    const result = await world.signIn.withPassword("alice", "not the password", world.context("planted-session"));
    assert.ok(!result.ok);
    assert.equal(result.code, "wrong_credentials");
    assert.equal(result.guess, true);
    assert.equal(result.phrase.key, "pages:login.error.wrong");
    assert.deepEqual(world.lastOutcome(), { kind: "failure" });
    assert.deepEqual(world.ended, [], "a refused sign-in leaves the browser's session alone");
    assert.deepEqual(world.started, []);
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "password", reason: "wrong_credentials" });
    assert.ok(world.logged.some((line) => line.level === "warn" && line.details.event === "login_failed"));
  });

  it("a disabled account is refused after a correct password, and the attempt is not counted", async () => {
    const world = new SignInWorld();
    world.users.set("alice", user("alice", { enabled: false }));
    const result = await world.signIn.withPassword("alice", PASSWORD, world.context());
    assert.ok(!result.ok);
    assert.equal(result.code, "disabled");
    assert.equal(result.guess, false);
    assert.deepEqual(world.lastOutcome(), { kind: "uncounted" });
    assert.deepEqual(world.started, []);
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "password", reason: "disabled" });
  });

  it("past the throttle's ceiling the password is not checked, and the refusal says when to try again", async () => {
    const world = new SignInWorld();
    world.gate.refuseFor = 60;
    const result = await world.signIn.withPassword("alice", PASSWORD, world.context());
    assert.ok(!result.ok);
    assert.equal(result.code, "throttled");
    assert.equal(result.retryAfterSeconds, 60);
    assert.deepEqual(world.passwordChecks, []);
    assert.equal(world.gate.attempts[0]?.namespace, LOGIN_THROTTLE.namespace);
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "password", reason: "throttled" });
  });

  it("a user with a second factor gets a session owing the step, and no sign-in event until it is passed", async () => {
    const world = new SignInWorld();
    world.owed.set("alice", "second_factor");
    const result = await world.signIn.withPassword("alice", PASSWORD, world.context());
    assert.ok(result.ok);
    assert.equal(result.value.pendingStep, "second_factor");
    assert.deepEqual(world.started, [{ uid: "alice", pending: "second_factor" }]);
    assert.deepEqual(world.audited, []);
  });
});

describe("sign-in with a passkey", () => {
  it("a verified assertion of an enabled user starts a complete session and ends the browser's", async () => {
    const world = new SignInWorld();
    const binding = { kind: "sign_in", browser: "nonce hash" } as const;
    const result = await world.signIn.withPasskey(binding, "good assertion", world.context("anonymous-session"));
    assert.ok(result.ok);
    assert.equal(result.value.pendingStep, null);
    assert.deepEqual(world.started, [{ uid: "alice", pending: null }]);
    assert.deepEqual(world.ended, ["anonymous-session"]);
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "passkey" });
  });

  it("an assertion that does not verify counts as a failure of the address, with no user named", async () => {
    const world = new SignInWorld();
    const result = await world.signIn.withPasskey({ kind: "sign_in", browser: "n" }, "forged", world.context());
    assert.ok(!result.ok);
    assert.equal(result.code, "wrong_credentials");
    assert.equal(result.phrase.key, "secondFactor:passkey.signInFailed");
    assert.deepEqual(world.lastOutcome(), { kind: "failure" });
    assert.equal(world.audited[0]?.event?.uid, null);
  });

  it("a disabled user's verified passkey is refused, the assertion having counted as a success", async () => {
    const world = new SignInWorld();
    world.users.set("alice", user("alice", { enabled: false }));
    const result = await world.signIn.withPasskey({ kind: "sign_in", browser: "n" }, "good assertion", world.context());
    assert.ok(!result.ok);
    assert.equal(result.code, "disabled");
    assert.deepEqual(world.lastOutcome(), { kind: "success", reset: [] });
    assert.deepEqual(world.started, []);
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "passkey", reason: "disabled" });
  });
});

describe("the second factor a password sign-in owes", () => {
  it("a right code completes the pending session, audited with its factor after the password", async () => {
    const world = new SignInWorld();
    const result = await world.signIn.withSecondFactor(PENDING, "alice", "totp", "123456", world.context());
    assert.ok(result.ok);
    assert.deepEqual(
      world.completed.map((session) => session.token),
      ["pending-session"],
    );
    assert.deepEqual(world.lastOutcome(), { kind: "success", reset: [secondFactorUserBucket("alice")] });
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "totp", password: true });
  });

  it("a wrong code is a counted guess, audited with the provider tried", async () => {
    const world = new SignInWorld();
    const result = await world.signIn.withSecondFactor(PENDING, "alice", "backup_codes", "000000", world.context());
    assert.ok(!result.ok);
    assert.equal(result.code, "wrong_credentials");
    assert.equal(result.phrase.key, "secondFactor:challenge.wrong");
    assert.deepEqual(world.lastOutcome(), { kind: "failure" });
    assert.deepEqual(world.completed, []);
    assert.deepEqual(world.audited[0]?.event?.detail, { factor: "backup_codes", reason: "wrong_credentials" });
  });

  it("a recovery code that signs in is logged at warn with the codes left", async () => {
    const world = new SignInWorld();
    world.unusedRecoveryCodes = 4;
    await world.signIn.withSecondFactor(PENDING, "alice", "backup_codes", "123456", world.context());
    const line = world.logged.find((entry) => entry.details.event === "recovery_code_used");
    assert.equal(line?.level, "warn");
    assert.equal(line?.details.remaining, 4);
  });

  it("past the throttle's ceiling the code is not looked at", async () => {
    const world = new SignInWorld();
    world.gate.refuseFor = 30;
    const result = await world.signIn.withSecondFactor(PENDING, "alice", "totp", "123456", world.context());
    assert.ok(!result.ok);
    assert.equal(result.code, "throttled");
    assert.equal(result.retryAfterSeconds, 30);
    assert.equal(world.gate.attempts[0]?.namespace, SECOND_FACTOR_THROTTLE.namespace);
    assert.deepEqual(world.completed, []);
  });
});
