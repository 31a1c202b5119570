import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256Hex } from "../../../src/crypto/secrets.js";
import {
  cappedPosition,
  delayForFailures,
  inFlightForgetSeconds,
  LOGIN_FLOW_POLL_THROTTLE,
  LOGIN_FLOW_START_THROTTLE,
  LOGIN_THROTTLE,
  loginBuckets,
  loginFlowPollBuckets,
  loginFlowStartBuckets,
  loginUserBucket,
  REGISTRATION_THROTTLE,
  registrationBuckets,
  type ThrottlePolicy,
  TOKEN_THROTTLE,
  tokenBuckets,
} from "../../../src/security/domain/throttle-policy.js";

/**
 * The throttle's arithmetic (src/security/throttle-policy.ts), without a database: the delay of the
 * n-th attempt, where it caps, when an attempt in flight is forgotten, and the policies as
 * docs/security.md "Brute-force throttling" documents them.
 */

const POLICIES = [LOGIN_THROTTLE, TOKEN_THROTTLE, LOGIN_FLOW_START_THROTTLE, LOGIN_FLOW_POLL_THROTTLE, REGISTRATION_THROTTLE];

describe("the throttle policy", () => {
  it("the n-th failure makes the next attempt wait baseDelay · 2^(n-1); none before the first", () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((n) => delayForFailures(n, LOGIN_THROTTLE)),
      [0, 200, 400, 800, 1600, 3200, 6400, 12_800],
    );
    assert.equal(delayForFailures(-3, LOGIN_THROTTLE), 0);
  });

  it("the delay stops at the policy's maximum and stays there, however many failures", () => {
    assert.equal(delayForFailures(8, LOGIN_THROTTLE), 25_000, "200 ms · 2^7 = 25.6 s, capped at 25 s");
    assert.equal(delayForFailures(8, TOKEN_THROTTLE), 10_000, "100 ms · 2^7 = 12.8 s, capped at 10 s");
    for (const policy of POLICIES) {
      for (const failures of [50, 1_000, 1_000_000, Number.MAX_SAFE_INTEGER]) {
        assert.equal(delayForFailures(failures, policy), policy.maxDelayMs, `${policy.namespace} at ${failures}`);
      }
    }
  });

  it("the exponent stops at 30, so an uncapped policy's delay stays a finite number", () => {
    const uncapped: ThrottlePolicy = { ...LOGIN_THROTTLE, baseDelayMs: 1, maxDelayMs: Number.POSITIVE_INFINITY };
    assert.equal(delayForFailures(31, uncapped), 2 ** 30);
    assert.equal(delayForFailures(10_000, uncapped), 2 ** 30);
  });

  it("the capped delay starts at the 8th failure for login and token, the 7th for Login Flow starts", () => {
    assert.equal(cappedPosition(LOGIN_THROTTLE), 8);
    assert.equal(cappedPosition(TOKEN_THROTTLE), 8);
    assert.equal(cappedPosition(LOGIN_FLOW_START_THROTTLE), 7);
    for (const policy of POLICIES) {
      const position = cappedPosition(policy);
      assert.ok(delayForFailures(position - 1, policy) < policy.maxDelayMs, policy.namespace);
      assert.equal(delayForFailures(position, policy), policy.maxDelayMs, policy.namespace);
    }
  });

  it("an attempt in flight is forgotten a minute after the longest delay it could have waited", () => {
    assert.equal(inFlightForgetSeconds(LOGIN_THROTTLE), 85);
    assert.equal(inFlightForgetSeconds(TOKEN_THROTTLE), 70);
    assert.equal(inFlightForgetSeconds(LOGIN_FLOW_START_THROTTLE), 65);
    assert.equal(inFlightForgetSeconds({ ...TOKEN_THROTTLE, maxDelayMs: 10_001 }), 71, "a partial second counts whole");
  });

  it("every policy is the one docs/security.md documents: delays, forgetting, ceiling and lockout", () => {
    const documented = (policy: ThrottlePolicy) => [
      policy.baseDelayMs,
      policy.maxDelayMs,
      policy.forgetAfterSeconds,
      policy.lockoutAfterFailures,
      policy.lockoutSeconds,
    ];
    assert.deepEqual(documented(LOGIN_THROTTLE), [200, 25_000, 12 * 3600, 30, 300]);
    assert.deepEqual(documented(TOKEN_THROTTLE), [100, 10_000, 3600, 100, 300]);
    assert.deepEqual(documented(LOGIN_FLOW_START_THROTTLE), [100, 5_000, 600, 300, 600]);
    assert.deepEqual(documented(LOGIN_FLOW_POLL_THROTTLE), [100, 10_000, 3600, 100, 300]);
  });

  it("no policy's capped delay reaches the desktop client's 30 s request timeout", () => {
    for (const policy of POLICIES) assert.ok(policy.maxDelayMs < 30_000, policy.namespace);
  });

  it("a sequential guesser waits the delays of every failure before the ceiling: over nine minutes for login", () => {
    const waited = (policy: ThrottlePolicy) => {
      let total = 0;
      for (let n = 1; n < policy.lockoutAfterFailures; n++) total += delayForFailures(n, policy);
      return total;
    };
    // 200 ms … 12.8 s for failures 1–7 (25.4 s), then 25 s for each of failures 8–29.
    assert.equal(waited(LOGIN_THROTTLE), 25_400 + 22 * 25_000);
    assert.equal(waited(TOKEN_THROTTLE), 12_700 + 92 * 10_000);
  });

  it("each policy's buckets carry its own namespace, so each purges only its own rows", () => {
    assert.deepEqual(
      POLICIES.map((policy) => policy.namespace),
      ["login", "oauth", "flowstart", "flowpoll", "register"],
    );
    assert.deepEqual(tokenBuckets("192.0.2.1"), [{ key: "oauth:ip:192.0.2.1", shared: true }]);
    assert.deepEqual(loginFlowStartBuckets("192.0.2.1"), [{ key: "flowstart:ip:192.0.2.1", shared: true }]);
    assert.deepEqual(loginFlowPollBuckets("192.0.2.1"), [{ key: "flowpoll:ip:192.0.2.1", shared: true }]);
    assert.deepEqual(registrationBuckets("192.0.2.1"), [{ key: "register:ip:192.0.2.1", shared: true }]);
  });

  it("a login counts per address (shared) and per user name (personal), the name keyed by its SHA-256 exactly as sent", () => {
    assert.deepEqual(loginBuckets("192.0.2.1", "Alice "), [
      { key: "login:ip:192.0.2.1", shared: true },
      { key: `login:user:${sha256Hex("Alice ")}`, shared: false },
    ]);
    assert.notEqual(loginUserBucket("alice").key, loginUserBucket("Alice").key, "user names match case-sensitively");
    assert.equal(loginUserBucket("x".repeat(10_000)).key.length, loginUserBucket("a").key.length, "a fixed-length key");
  });
});
