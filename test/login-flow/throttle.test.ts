import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LOGIN_FLOW_LIFETIME_SECONDS } from "../../src/login-flow/flow.js";
import { LOGIN_FLOW_POLL_THROTTLE, LOGIN_FLOW_START_THROTTLE } from "../../src/security/domain/throttle-policy.js";
import type { TestApp } from "../support/app.js";
import { answerGrantPage, createLoginFlowTestApp, loggedIn, poll, startFlow, startRequest } from "./support.js";

/**
 * Issue 13: flow starts and polls are throttled per IP like the other unauthenticated endpoints
 * (docs/decisions.md "Login Flow v2 throttling"). Delays are recorded, never slept.
 */
describe("Login Flow v2 throttling", () => {
  let t: TestApp;
  before(async () => {
    t = await createLoginFlowTestApp();
  });
  after(() => t.close());

  it("each flow started from an address makes the next start from it wait longer; another address is not slowed", async () => {
    const ip = "198.51.100.1";
    t.sleeps.length = 0;
    for (let i = 0; i < 4; i++) await startFlow(t.app, ip);
    assert.deepEqual(t.sleeps, [100, 200, 400], "100 ms · 2^(n-1) from the second start");
    t.sleeps.length = 0;
    await startFlow(t.app, "198.51.100.2");
    assert.deepEqual(t.sleeps, [], "another address owes nothing");
  });

  it("flow starts from one address are refused (429, Retry-After) past the ceiling, until the lockout ends", async () => {
    const ip = "198.51.100.3";
    for (let i = 0; i < LOGIN_FLOW_START_THROTTLE.lockoutAfterFailures; i++) {
      assert.equal((await startRequest(t.app, ip)).statusCode, 200, `start ${i + 1}`);
    }
    assert.ok(t.sleeps.includes(LOGIN_FLOW_START_THROTTLE.maxDelayMs), "the delay reached its cap on the way");
    const refused = await startRequest(t.app, ip);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers["retry-after"], String(LOGIN_FLOW_START_THROTTLE.lockoutSeconds));
    assert.equal(refused.json().error, "too_many_requests");
    assert.equal((await startRequest(t.app, "198.51.100.4")).statusCode, 200, "only that address");
    t.clock.advance(LOGIN_FLOW_START_THROTTLE.forgetAfterSeconds);
    assert.equal((await startRequest(t.app, ip)).statusCode, 200, "after a pause the count is forgotten");
  });

  it("a client polling its pending flow every 5 seconds for the flow's 20 minutes (and after) is never slowed or refused", async () => {
    const ip = "198.51.100.5";
    const flow = await startFlow(t.app, ip);
    t.sleeps.length = 0;
    for (let elapsed = 0; elapsed < LOGIN_FLOW_LIFETIME_SECONDS + 600; elapsed += 5) {
      const response = await poll(t.app, flow.pollToken, ip);
      assert.equal(response.statusCode, 404, `after ${elapsed} s`);
      t.clock.advance(5);
    }
    assert.deepEqual(t.sleeps, [], "no poll was delayed");
    const next = await startFlow(t.app, ip);
    await answerGrantPage(await loggedIn(t.app), next, "grant");
    assert.equal((await poll(t.app, next.pollToken, ip)).statusCode, 200, "and the address is not held back");
  });

  it("polls of tokens that name no flow are slowed, then refused (429) past the ceiling, for that address only", async () => {
    const ip = "198.51.100.6";
    const pending = await startFlow(t.app, ip);
    t.sleeps.length = 0;
    for (let i = 0; i < LOGIN_FLOW_POLL_THROTTLE.lockoutAfterFailures; i++) {
      assert.equal((await poll(t.app, `guess${i}`.padEnd(128, "x"), ip)).statusCode, 404);
    }
    assert.deepEqual(t.sleeps.slice(0, 4), [100, 200, 400, 800], "guesses wait longer and longer");
    const refused = await poll(t.app, "one more guess".padEnd(128, "x"), ip);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers["retry-after"], String(LOGIN_FLOW_POLL_THROTTLE.lockoutSeconds));
    assert.equal((await poll(t.app, pending.pollToken, ip)).statusCode, 429, "the whole address is held while locked");
    assert.equal((await poll(t.app, pending.pollToken, "198.51.100.7")).statusCode, 404, "other addresses poll as before");
  });
});
