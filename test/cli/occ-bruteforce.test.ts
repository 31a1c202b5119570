import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ManualClock, systemClock } from "../../src/clock.js";
import {
  delayForFailures,
  LOGIN_THROTTLE,
  loginBuckets,
  loginUserBucket,
  TOKEN_THROTTLE,
  tokenBuckets,
} from "../../src/security/domain/throttle-policy.js";
import { SqlThrottleStore } from "../../src/storage/stores/security/throttle-store.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

const PASSWORD = "correct horse battery";

/**
 * Nextcloud's `security:bruteforce:attempts IP [action]` and `security:bruteforce:reset IP` over the
 * throttles of client addresses. The app runs on the real clock (occ reads the rows with it), its
 * delays recorded instead of slept.
 */
describe("./occ security:bruteforce:attempts and security:bruteforce:reset", () => {
  let storage: TestStorage;
  let node: Pick<TestApp, "app" | "services">;
  const occ = (...argv: string[]) => runOccInProcess(argv, storage);
  const attempts = async (...argv: string[]) => {
    const result = await occ("security:bruteforce:attempts", ...argv, "--output=json");
    assert.equal(result.code, 0, result.err);
    return JSON.parse(result.out);
  };
  /** `count` failures in a bucket, as the endpoints settle them. */
  const fail = async (policy: typeof LOGIN_THROTTLE, key: string, count: number) => {
    const store = new SqlThrottleStore(storage.storage.db, policy);
    for (let i = 0; i < count; i++) await store.settle([key], { kind: "failure" }, systemClock.nowSeconds());
  };

  before(async () => {
    storage = await createTestStorage();
    node = await createAppOn(storage.storage, storage.dataDir, new ManualClock(systemClock.nowSeconds()));
    accepted(await node.services.users.create({ uid: "bob", password: PASSWORD }));
  });
  after(async () => {
    await node.app.close();
    await storage.cleanup();
  });

  it("attempts shows an address's failures and its next attempt's delay in Nextcloud's shape, per throttle too", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await new FormClient(node.app, "192.0.2.10").login("bob", "wrong");
      assert.notEqual(response.statusCode, 429);
    }
    const shown = await attempts("192.0.2.10");
    assert.deepEqual(
      { "bypass-listed": shown["bypass-listed"], attempts: shown.attempts, delay: shown.delay },
      { "bypass-listed": false, attempts: 3, delay: delayForFailures(3, LOGIN_THROTTLE) },
    );
    assert.equal(shown["counted-as"], "192.0.2.10");
    assert.deepEqual(shown.throttles.login, {
      attempts: 3,
      "in-flight": 0,
      delay: delayForFailures(3, LOGIN_THROTTLE),
      "lockout-seconds": 0,
    });
    assert.deepEqual(Object.keys(shown.throttles), ["login", "oauth", "flowstart", "flowpoll", "devicecode", "register", "2fa"]);
    assert.equal(shown.throttles.oauth.attempts, 0);

    // Nextcloud's action argument: one throttle only.
    const loginOnly = await attempts("192.0.2.10", "login");
    assert.deepEqual(Object.keys(loginOnly.throttles), ["login"]);
    assert.equal(loginOnly.attempts, 3);
    assert.equal((await attempts("192.0.2.10", "oauth")).attempts, 0);
    assert.equal(
      (await occ("security:bruteforce:attempts", "192.0.2.10", "webdav")).code,
      2,
      "an unknown throttle is a usage error",
    );

    // Plain: Nextcloud's list, the delay with its unit.
    const plain = await occ("security:bruteforce:attempts", "192.0.2.10");
    assert.ok(
      plain.out.startsWith(`  - bypass-listed: false\n  - attempts: 3\n  - delay: ${delayForFailures(3, LOGIN_THROTTLE)} ms\n`),
      plain.out,
    );
    // Another address has nothing counted.
    assert.deepEqual((await attempts("192.0.2.11")).attempts, 0);
  });

  it("reset lifts a locked-out address in every throttle: the next login from it gets in", async () => {
    const ip = "192.0.2.20";
    const [addressBucket] = loginBuckets(ip, "bob");
    assert.ok(addressBucket);
    await fail(LOGIN_THROTTLE, addressBucket.key, LOGIN_THROTTLE.lockoutAfterFailures);
    await fail(TOKEN_THROTTLE, tokenBuckets(ip)[0]?.key ?? "", 2);
    assert.equal((await new FormClient(node.app, ip).login("bob", PASSWORD)).statusCode, 429);
    const locked = await attempts(ip);
    assert.ok(locked.throttles.login["lockout-seconds"] > 0);

    const reset = await occ("security:bruteforce:reset", ip);
    assert.equal(reset.code, 0, reset.err);
    assert.equal(
      reset.out,
      `The throttle of ${ip} was reset: ${LOGIN_THROTTLE.lockoutAfterFailures + 2} failed attempts forgotten\n`,
    );
    assert.equal((await attempts(ip)).attempts, 0);
    const login = await new FormClient(node.app, ip).login("bob", PASSWORD);
    assert.equal(login.statusCode, 303, "logged in");
  });

  it("reset leaves a user name's own throttle alone", async () => {
    const userKey = loginUserBucket("carol").key;
    await fail(LOGIN_THROTTLE, userKey, 4);
    assert.equal((await occ("security:bruteforce:reset", "192.0.2.30")).code, 0);
    const row = await storage.storage.db
      .selectFrom("throttle")
      .select("failures")
      .where("bucket", "=", userKey)
      .executeTakeFirst();
    assert.equal(Number(row?.failures), 4);
  });

  it("an IPv6 address is shown and reset under the key its endpoints count it in", async () => {
    const ip = "2001:db8:1:2::5";
    const [bucket] = tokenBuckets(ip);
    assert.ok(bucket);
    await fail(TOKEN_THROTTLE, bucket.key, 2);
    const shown = await attempts(ip);
    assert.equal(shown.throttles.oauth.attempts, 2);
    assert.equal(`${TOKEN_THROTTLE.namespace}:ip:${shown["counted-as"]}`, bucket.key);
    const reset = await occ("security:bruteforce:reset", ip);
    assert.equal(reset.code, 0, reset.err);
    assert.match(reset.out, /: 2 failed attempts forgotten\n$/);
    assert.equal((await attempts(ip)).throttles.oauth.attempts, 0);
  });

  it("text that is not an IP address: exit 1 with Nextcloud's message, nothing read or changed", async () => {
    for (const command of ["security:bruteforce:attempts", "security:bruteforce:reset"]) {
      const result = await occ(command, "not-an-ip");
      assert.equal(result.code, 1, command);
      assert.equal(result.err, '"not-an-ip" is not a valid IP address\n');
      assert.equal(result.out, "");
    }
  });
});
