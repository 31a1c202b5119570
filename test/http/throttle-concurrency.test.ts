import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import {
  cappedPosition,
  delayForFailures,
  LOGIN_THROTTLE,
  loginBuckets,
  loginUserBucket,
  TOKEN_THROTTLE,
  tokenBuckets,
} from "../../src/security/domain/throttle-policy.js";
import { basic, createOAuthTestApp, PASSWORD, TOKEN, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/**
 * issue 16, review finding 2: the throttle reserves every attempt before the credentials are
 * checked, so a concurrent burst counts itself. The app's delays are held (DelayHold) so the delayed
 * attempts stay in flight while the rest of the burst arrives; nothing sleeps.
 */

/** Sends `count` requests at once; resolves once each has been answered or is waiting out its delay. */
async function burst(t: TestApp, count: number, send: (i: number) => Promise<LightMyRequestResponse>) {
  t.sleeps.length = 0;
  t.delays.hold();
  let answered = 0;
  const responses = Array.from({ length: count }, (_, i) =>
    send(i).then((response) => {
      answered++;
      t.delays.changed();
      return response;
    }),
  );
  await t.delays.until(() => answered + t.delays.held === count);
  const whileInFlight = { delays: [...t.sleeps].sort((a, b) => a - b), answered };
  t.delays.release();
  return { whileInFlight, responses: await Promise.all(responses) };
}

function statusCounts(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

/** A bucket's failures and attempts in flight (a bucket without a row has neither). */
async function bucketRow(t: TestApp, key: string) {
  const row = await t.services.storage.db
    .selectFrom("throttle")
    .select(["failures", "in_flight"])
    .where("bucket", "=", key)
    .executeTakeFirst();
  return { failures: Number(row?.failures ?? 0), inFlight: Number(row?.in_flight ?? 0) };
}

/** The delays of positions 1 … n-1: what the 2nd … n-th attempt of a sequence waits. */
function sequenceDelays(first: number, last: number, policy = LOGIN_THROTTLE): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => delayForFailures(first + i, policy));
}

describe("throttle under concurrency: login form and HTTP Basic", () => {
  let t: TestApp;
  const capped = cappedPosition(LOGIN_THROTTLE);

  before(async () => {
    t = await createOAuthTestApp();
    for (const uid of ["bob", "carl", "dina", "erin"]) accepted(await t.services.users.create({ uid, password: PASSWORD }));
  });
  after(() => t.close());

  const basicAttempt = (ip: string, uid: string, password: string) =>
    t.app.inject({
      method: "GET",
      url: "/index.php/apps/oauth2/api/v1/userinfo",
      remoteAddress: ip,
      headers: { authorization: basic(uid, password) },
    });

  it("40 parallel Basic attempts with wrong passwords: each is counted before it is checked, so at most the ceiling is evaluated, the rest get 429, and the counts equal the attempts evaluated", async () => {
    const ip = "198.51.100.40";
    const { whileInFlight, responses } = await burst(t, 40, (i) => basicAttempt(ip, "bob", `guess-${i}`));
    const counts = statusCounts(responses);
    const evaluated = counts[401] ?? 0;
    assert.ok(evaluated <= LOGIN_THROTTLE.lockoutAfterFailures, JSON.stringify(counts));
    assert.equal(evaluated + (counts[429] ?? 0), 40, JSON.stringify(counts));
    // The k-th attempt waited what the k-th attempt of a sequence waits; from the capped delay on,
    // one attempt at a time: the burst gets as far as a sequence would before its capped delay.
    assert.equal(evaluated, capped, JSON.stringify(counts));
    assert.deepEqual(whileInFlight.delays, sequenceDelays(1, capped - 1), "no two attempts of the burst waited the same delay");
    for (const refused of responses.filter((r) => r.statusCode === 429)) {
      assert.equal(refused.headers["retry-after"], String(LOGIN_THROTTLE.maxDelayMs / 1000));
    }
    const [ipBucket, userBucket] = loginBuckets(ip, "bob");
    assert.deepEqual(await bucketRow(t, userBucket?.key ?? ""), { failures: evaluated, inFlight: 0 });
    assert.deepEqual(await bucketRow(t, ipBucket?.key ?? ""), { failures: evaluated, inFlight: 0 });
  });

  it("after such a burst the right password still works (after the capped delay) and resets the user's count, not the address's", async () => {
    const ip = "198.51.100.40";
    t.sleeps.length = 0;
    assert.equal((await basicAttempt(ip, "bob", PASSWORD)).statusCode, 200);
    assert.deepEqual(t.sleeps, [LOGIN_THROTTLE.maxDelayMs]);
    const [ipBucket, userBucket] = loginBuckets(ip, "bob");
    assert.deepEqual(await bucketRow(t, userBucket?.key ?? ""), { failures: 0, inFlight: 0 });
    assert.deepEqual(await bucketRow(t, ipBucket?.key ?? ""), { failures: capped, inFlight: 0 });
  });

  it("an app password is decided before the throttle: parallel requests wait no delay and touch no bucket, and a user locked out by guessing keeps using it", async () => {
    const ip = "198.51.100.46";
    accepted(await t.services.users.create({ uid: "fran", password: PASSWORD }));
    const { secret } = accepted(await t.services.appPasswords.create("fran", "fran's desktop"));
    const { whileInFlight, responses } = await burst(t, 10, () => basicAttempt(ip, "fran", secret));
    assert.deepEqual(statusCounts(responses), { 200: 10 });
    assert.deepEqual(whileInFlight.delays, [], "no attempt waited");
    const [ipBucket, userBucket] = loginBuckets(ip, "fran");
    assert.deepEqual(await bucketRow(t, userBucket?.key ?? ""), { failures: 0, inFlight: 0 });
    assert.deepEqual(await bucketRow(t, ipBucket?.key ?? ""), { failures: 0, inFlight: 0 });

    // An attacker guesses fran's account password from many addresses up to the ceiling.
    for (let i = 0; i < LOGIN_THROTTLE.lockoutAfterFailures; i++) await basicAttempt(`192.0.2.${150 + i}`, "fran", `guess-${i}`);
    assert.equal((await basicAttempt(ip, "fran", PASSWORD)).statusCode, 429, "the account password is locked out");
    assert.equal((await basicAttempt(ip, "fran", secret)).statusCode, 200, "fran's client keeps working");
    assert.equal(
      (await bucketRow(t, userBucket?.key ?? "")).failures,
      LOGIN_THROTTLE.lockoutAfterFailures,
      "and its success does not reset the attacker's failures",
    );
  });

  it("40 parallel login-form attempts with wrong passwords: at most the ceiling evaluated, the rest 429, the counts equal the attempts evaluated", async () => {
    const ip = "198.51.100.41";
    const clients = Array.from({ length: 40 }, () => new FormClient(t.app, ip));
    const tokens = await Promise.all(clients.map(async (c) => requestTokenOf((await c.get("/index.php/login")).body)));
    const { whileInFlight, responses } = await burst(t, 40, (i) =>
      (clients[i] as FormClient).post("/index.php/login", {
        user: "carl",
        password: `guess-${i}`,
        requesttoken: tokens[i] as string,
      }),
    );
    const counts = statusCounts(responses);
    const evaluated = counts[401] ?? 0;
    assert.ok(evaluated <= LOGIN_THROTTLE.lockoutAfterFailures, JSON.stringify(counts));
    assert.equal(evaluated + (counts[429] ?? 0), 40, JSON.stringify(counts));
    assert.equal(evaluated, capped, JSON.stringify(counts));
    assert.deepEqual(whileInFlight.delays, sequenceDelays(1, capped - 1));
    const [ipBucket, userBucket] = loginBuckets(ip, "carl");
    assert.deepEqual(await bucketRow(t, userBucket?.key ?? ""), { failures: evaluated, inFlight: 0 });
    assert.deepEqual(await bucketRow(t, ipBucket?.key ?? ""), { failures: evaluated, inFlight: 0 });

    const form = new FormClient(t.app, "198.51.100.42");
    assert.equal((await form.login("carl", PASSWORD)).statusCode, 303, "the right password still works");
    assert.deepEqual(await bucketRow(t, userBucket?.key ?? ""), { failures: 0, inFlight: 0 }, "and reset the user's count");
  });

  it("at the capped delay attempts go one at a time: a burst on a user with failures on record gets one attempt evaluated", async () => {
    const ip = "198.51.100.43";
    // 27 failures from other addresses: three short of the ceiling.
    for (let i = 0; i < LOGIN_THROTTLE.lockoutAfterFailures - 3; i++) await basicAttempt(`192.0.2.${100 + i}`, "dina", "wrong");
    const { responses } = await burst(t, 20, (i) => basicAttempt(ip, "dina", `guess-${i}`));
    const counts = statusCounts(responses);
    assert.deepEqual(counts, { 401: 1, 429: 19 }, "at the capped delay: one attempt at a time");
    assert.deepEqual(await bucketRow(t, loginUserBucket("dina").key), {
      failures: LOGIN_THROTTLE.lockoutAfterFailures - 2,
      inFlight: 0,
    });
  });

  it("concurrent correct Basic attempts are counted while in flight and give their reservations back when they succeed", async () => {
    const ip = "198.51.100.44";
    const { whileInFlight, responses } = await burst(t, 5, () => basicAttempt(ip, "erin", PASSWORD));
    assert.deepEqual(statusCounts(responses), { 200: 5 });
    assert.deepEqual(whileInFlight.delays, sequenceDelays(1, 4), "one user sending passwords at once is suspect");
    const [ipBucket, userBucket] = loginBuckets(ip, "erin");
    assert.deepEqual(await bucketRow(t, userBucket?.key ?? ""), { failures: 0, inFlight: 0 });
    assert.deepEqual(await bucketRow(t, ipBucket?.key ?? ""), { failures: 0, inFlight: 0 });
  });

  it("concurrent attempts from one address with no failure on record are not delayed (users behind one NAT)", async () => {
    const ip = "198.51.100.45";
    const users = ["nat-1", "nat-2", "nat-3", "nat-4", "nat-5"];
    for (const uid of users) accepted(await t.services.users.create({ uid, password: PASSWORD }));
    const { whileInFlight, responses } = await burst(t, users.length, (i) => basicAttempt(ip, users[i] as string, PASSWORD));
    assert.deepEqual(statusCounts(responses), { 200: users.length });
    assert.deepEqual(whileInFlight.delays, []);
  });
});

describe("throttle under concurrency: token endpoint", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const wrongSecret = (ip: string, i: number) =>
    t.app.inject({
      method: "POST",
      url: TOKEN,
      remoteAddress: ip,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(WEB_CLIENT.clientId, `wrong-${i}`) },
      payload: "grant_type=authorization_code&code=x&redirect_uri=y",
    });

  it(`${TOKEN_THROTTLE.lockoutAfterFailures + 50} parallel wrong client secrets from one address: at most the ceiling evaluated, the rest 429, the count equals the attempts evaluated`, async () => {
    const ip = "203.0.113.50";
    const count = TOKEN_THROTTLE.lockoutAfterFailures + 50;
    const { responses } = await burst(t, count, (i) => wrongSecret(ip, i));
    const counts = statusCounts(responses);
    const evaluated = counts[401] ?? 0;
    assert.ok(evaluated <= TOKEN_THROTTLE.lockoutAfterFailures, JSON.stringify(counts));
    assert.equal(evaluated + (counts[429] ?? 0), count, JSON.stringify(counts));
    assert.ok(responses.filter((r) => r.statusCode === 429).every((r) => r.json().error === "temporarily_unavailable"));
    assert.deepEqual(await bucketRow(t, tokenBuckets(ip)[0]?.key ?? ""), { failures: evaluated, inFlight: 0 });
  });

  it("with a failure on record, parallel wrong secrets wait what a sequence would wait, one at a time from the capped delay", async () => {
    const ip = "203.0.113.51";
    assert.equal((await wrongSecret(ip, 0)).statusCode, 401);
    const { whileInFlight, responses } = await burst(t, 20, (i) => wrongSecret(ip, i + 1));
    const capped = cappedPosition(TOKEN_THROTTLE);
    assert.deepEqual(whileInFlight.delays, sequenceDelays(1, capped - 1, TOKEN_THROTTLE));
    assert.deepEqual(statusCounts(responses), { 401: capped - 1, 429: 20 - (capped - 1) });
    assert.deepEqual(await bucketRow(t, tokenBuckets(ip)[0]?.key ?? ""), { failures: capped, inFlight: 0 });
  });

  it("a success at the token endpoint resets the address's count", async () => {
    const ip = "203.0.113.51";
    const ok = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/revoke",
      remoteAddress: ip,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
      },
      payload: "token=unknown",
    });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(await bucketRow(t, tokenBuckets(ip)[0]?.key ?? ""), { failures: 0, inFlight: 0 });
  });
});
