import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bucketState,
  CLIENT_ADDRESS_NAMESPACES,
  clientAddressBucket,
  countedAddressOf,
  DEVICE_USER_CODE_THROTTLE,
  delayForFailures,
  deviceUserCodeBuckets,
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
  SECOND_FACTOR_THROTTLE,
  secondFactorBuckets,
  TOKEN_THROTTLE,
  tokenBuckets,
} from "../../../src/security/domain/throttle-policy.js";

/** What an administrator is shown of a bucket (`occ security:bruteforce:attempts`), without a database. */
describe("a throttle bucket's state", () => {
  const now = 1_800_000_000;
  const shared = { key: "login:ip:192.0.2.1", shared: true };
  const personal = loginUserBucket("bob");
  const row = (failures: number, inFlight = 0, lastFailureAt = now - 10, lastAttemptAt = now - 10) => ({
    failures,
    lastFailureAt,
    inFlight,
    lastAttemptAt,
  });

  it("no row: nothing counted, no delay, no lockout", () => {
    assert.deepEqual(bucketState(undefined, shared, LOGIN_THROTTLE, now), {
      failures: 0,
      inFlight: 0,
      delayMs: 0,
      lockedSeconds: 0,
    });
  });

  it("the next attempt's delay is the one its position owes; forgotten failures and abandoned reservations count for nothing", () => {
    assert.equal(bucketState(row(3), shared, LOGIN_THROTTLE, now).delayMs, delayForFailures(3, LOGIN_THROTTLE));
    const forgotten = bucketState(row(3, 0, now - LOGIN_THROTTLE.forgetAfterSeconds), shared, LOGIN_THROTTLE, now);
    assert.deepEqual(forgotten, { failures: 0, inFlight: 0, delayMs: 0, lockedSeconds: 0 });
    const abandoned = bucketState(row(0, 2, 0, now - inFlightForgetSeconds(LOGIN_THROTTLE)), personal, LOGIN_THROTTLE, now);
    assert.equal(abandoned.inFlight, 0);
  });

  it("attempts in flight delay a shared bucket only once it has a failure; a personal one at once", () => {
    assert.equal(bucketState(row(0, 2), shared, LOGIN_THROTTLE, now).delayMs, 0);
    assert.equal(bucketState(row(1, 2), shared, LOGIN_THROTTLE, now).delayMs, delayForFailures(3, LOGIN_THROTTLE));
    assert.equal(bucketState(row(0, 2), personal, LOGIN_THROTTLE, now).delayMs, delayForFailures(2, LOGIN_THROTTLE));
  });

  it("at the ceiling the lockout's remaining seconds are shown, and none once it ended with nothing in flight", () => {
    const ceiling = LOGIN_THROTTLE.lockoutAfterFailures;
    assert.equal(
      bucketState(row(ceiling, 0, now - 100), shared, LOGIN_THROTTLE, now).lockedSeconds,
      LOGIN_THROTTLE.lockoutSeconds - 100,
    );
    assert.equal(bucketState(row(ceiling - 1), shared, LOGIN_THROTTLE, now).lockedSeconds, 0);
    const ended = now - LOGIN_THROTTLE.lockoutSeconds;
    assert.equal(bucketState(row(ceiling, 0, ended), shared, LOGIN_THROTTLE, now).lockedSeconds, 0);
    assert.equal(
      bucketState(row(ceiling - 1, 1, ended), shared, LOGIN_THROTTLE, now).lockedSeconds,
      1,
      "an attempt in flight holds it",
    );
  });

  it("an address's bucket in each policy is the very one that policy's endpoints count it in", () => {
    for (const ip of ["192.0.2.7", "2001:db8:1:2::7", "::ffff:192.0.2.7"]) {
      const endpoints = [
        [LOGIN_THROTTLE, loginBuckets(ip, "bob").find((bucket) => bucket.shared)],
        [TOKEN_THROTTLE, tokenBuckets(ip)[0]],
        [LOGIN_FLOW_START_THROTTLE, loginFlowStartBuckets(ip)[0]],
        [LOGIN_FLOW_POLL_THROTTLE, loginFlowPollBuckets(ip)[0]],
        [DEVICE_USER_CODE_THROTTLE, deviceUserCodeBuckets(ip, "bob").find((bucket) => bucket.shared)],
        [REGISTRATION_THROTTLE, registrationBuckets(ip)[0]],
        [SECOND_FACTOR_THROTTLE, secondFactorBuckets(ip, "bob").find((bucket) => bucket.shared)],
      ] as const;
      for (const [policy, bucket] of endpoints) {
        assert.deepEqual(clientAddressBucket(policy, ip), bucket, `${policy.namespace} ${ip}`);
        assert.equal(`${policy.namespace}:ip:${countedAddressOf(policy, clientAddressBucket(policy, ip))}`, bucket?.key);
      }
    }
    assert.deepEqual(CLIENT_ADDRESS_NAMESPACES, ["login", "oauth", "flowstart", "flowpoll", "devicecode", "register", "2fa"]);
  });
});
