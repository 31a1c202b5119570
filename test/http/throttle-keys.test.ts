import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  delayForFailures,
  inFlightForgetSeconds,
  LOGIN_THROTTLE,
  loginUserBucket,
  TOKEN_THROTTLE,
} from "../../src/security/domain/throttle-policy.js";
import { basic, createOAuthTestApp, PASSWORD } from "../oauth/support.js";
import { createProxiedApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/**
 * issue 16, review finding 10: throttle keys have a bounded length whatever user name is sent, and
 * a background job purges the rows that no longer hold anything.
 */
describe("throttle keys and purge", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD }));
  });
  after(() => t.close());

  const basicAttempt = (ip: string, uid: string, password: string) =>
    t.app.inject({
      method: "GET",
      url: "/index.php/apps/oauth2/api/v1/userinfo",
      remoteAddress: ip,
      headers: { authorization: basic(uid, password) },
    });
  const failuresOf = async (key: string) =>
    Number(
      (await t.services.storage.db.selectFrom("throttle").select("failures").where("bucket", "=", key).executeTakeFirst())
        ?.failures ?? 0,
    );

  it("a 16 KB user name gets a bucket key of fixed length (the SHA-256 of the name)", async () => {
    const longName = "x".repeat(16 * 1024);
    const response = await basicAttempt("192.0.2.1", longName, "guess");
    assert.equal(response.statusCode, 401);
    const keys = (await t.services.storage.db.selectFrom("throttle").select("bucket").execute()).map((r) => r.bucket);
    assert.ok(keys.length > 0);
    for (const key of keys) assert.ok(key.length <= "login:user:".length + 64, `${key.length} characters`);
    assert.equal(await failuresOf(loginUserBucket(longName).key), 1);
    assert.match(loginUserBucket(longName).key, /^login:user:[0-9a-f]{64}$/);
  });

  it("a user's failures from the form and from Basic land in one bucket, matched as the login matches the name (case-sensitive, the form trims)", async () => {
    await new FormClient(t.app, "192.0.2.2").login("  bob ", "wrong");
    await basicAttempt("192.0.2.3", "bob", "wrong");
    await basicAttempt("192.0.2.4", "Bob", "wrong");
    assert.equal(await failuresOf(loginUserBucket("bob").key), 2);
    assert.equal(await failuresOf(loginUserBucket("Bob").key), 1, "`Bob` is not the user `bob` at login either");
    assert.equal((await basicAttempt("192.0.2.5", "Bob", PASSWORD)).statusCode, 401);
  });

  it("the lockout for a user still holds under the hashed key, from the form and from Basic", async () => {
    accepted(await t.services.users.create({ uid: "lock", password: PASSWORD }));
    for (let i = 0; i < LOGIN_THROTTLE.lockoutAfterFailures; i++) {
      await basicAttempt(`198.51.100.${i + 1}`, "lock", "wrong");
    }
    assert.equal((await basicAttempt("203.0.113.1", "lock", PASSWORD)).statusCode, 429);
    assert.equal((await new FormClient(t.app, "203.0.113.2").login("lock", PASSWORD)).statusCode, 429);
  });

  it("an in-flight reservation left by a stopped node stops counting after the capped delay and a minute", async () => {
    const key = loginUserBucket("bob").key;
    await t.services.storage.db
      .updateTable("throttle")
      .set({ failures: 0, in_flight: 20, last_attempt_at: t.clock.nowSeconds() })
      .where("bucket", "=", key)
      .execute();
    assert.equal((await basicAttempt("192.0.2.6", "bob", PASSWORD)).statusCode, 429, "twenty attempts look in flight");
    t.clock.advance(inFlightForgetSeconds(LOGIN_THROTTLE));
    t.sleeps.length = 0;
    assert.equal((await basicAttempt("192.0.2.6", "bob", PASSWORD)).statusCode, 200);
    assert.deepEqual(t.sleeps, [], "the abandoned reservations no longer count");
  });

  it("an IPv6 client's failures from any address of its /64 count in one address bucket and delay its next attempt; another /64 starts clean", async () => {
    // A new user name each time, so only the address bucket links the attempts (password spraying).
    const addresses = ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:ffff:ffff:ffff:fffe"];
    for (const [i, ip] of addresses.entries()) {
      assert.equal((await basicAttempt(ip, `spray-${i}`, "guess")).statusCode, 401);
    }
    assert.equal(await failuresOf("login:ip:2001:db8:5:6::/64"), 3);
    for (const ip of addresses) assert.equal(await failuresOf(`login:ip:${ip}`), 0, ip);
    t.sleeps.length = 0;
    await basicAttempt("2001:0DB8:0005:0006:0:0:0:77", "spray-3", "guess");
    assert.deepEqual(t.sleeps, [delayForFailures(3, LOGIN_THROTTLE)], "a fourth address of the /64 waits as the fourth attempt");
    t.sleeps.length = 0;
    await basicAttempt("2001:db8:5:7::1", "spray-4", "guess");
    assert.deepEqual(t.sleeps, [], "the next /64 has a bucket of its own");
    assert.equal(await failuresOf("login:ip:2001:db8:5:7::/64"), 1);
  });

  it("an IPv4 client on a dual-stack socket (::ffff:a.b.c.d) counts in its IPv4 address's bucket", async () => {
    await basicAttempt("::ffff:198.51.100.77", "mapped-0", "guess");
    await basicAttempt("198.51.100.77", "mapped-1", "guess");
    assert.equal(await failuresOf("login:ip:198.51.100.77"), 2);
  });

  it("behind a trusted proxy, the forwarded IPv6 addresses of one /64 count in one bucket", async () => {
    const proxied = await createProxiedApp(t);
    try {
      for (const [i, forwarded] of ["2001:db8:9:a::1", "2001:db8:9:a::2"].entries()) {
        const response = await proxied.inject({
          method: "GET",
          url: "/index.php/apps/oauth2/api/v1/userinfo",
          remoteAddress: "127.0.0.1",
          headers: { authorization: basic(`proxied-${i}`, "guess"), "x-forwarded-for": forwarded },
        });
        assert.equal(response.statusCode, 401);
      }
    } finally {
      await proxied.close();
    }
    assert.equal(await failuresOf("login:ip:2001:db8:9:a::/64"), 2);
    assert.equal(await failuresOf("login:ip:127.0.0.1"), 0, "not the proxy's own address");
  });

  it("the purge job deletes only stale throttle rows (forgotten failures and no live reservation), per policy", async () => {
    const db = t.services.storage.db;
    await db.deleteFrom("throttle").execute();
    const now = t.clock.nowSeconds();
    const row = (bucket: string, failures: number, lastFailureAgo: number, inFlight = 0, lastAttemptAgo = lastFailureAgo) => ({
      bucket,
      failures,
      last_failure_at: now - lastFailureAgo,
      in_flight: inFlight,
      last_attempt_at: now - lastAttemptAgo,
    });
    await db
      .insertInto("throttle")
      .values([
        row("login:user:bob", 12, 13 * 3600), // an old raw-name key: ages out
        row(loginUserBucket("stale").key, 3, LOGIN_THROTTLE.forgetAfterSeconds),
        row(loginUserBucket("recent").key, 3, LOGIN_THROTTLE.forgetAfterSeconds - 1),
        row("login:ip:192.0.2.9", 0, 5 * 3600, 0, 600), // reset by a success, nothing in flight
        row("login:ip:192.0.2.10", 0, 5 * 3600, 1, 10), // an attempt in flight
        row("oauth:ip:192.0.2.11", 5, TOKEN_THROTTLE.forgetAfterSeconds),
        row("oauth:ip:192.0.2.12", 5, TOKEN_THROTTLE.forgetAfterSeconds - 1),
      ])
      .execute();
    const ran = await t.services.jobs.runDueJobs();
    assert.ok(ran.includes("security:throttle-purge"), ran.join(", "));
    const left = (await db.selectFrom("throttle").select("bucket").orderBy("bucket").execute()).map((r) => r.bucket);
    assert.deepEqual(left, ["login:ip:192.0.2.10", loginUserBucket("recent").key, "oauth:ip:192.0.2.12"].sort());
  });
});
