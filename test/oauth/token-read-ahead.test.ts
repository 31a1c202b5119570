import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestApp } from "../support/app.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOAuthTestApp, exchangeCode, issueCode, refresh, WEB_CLIENT } from "./support.js";

/**
 * Issue 17: the token endpoint reads the client a request names with the code or refresh token it
 * presents (on PostgreSQL in the statement that reserves the throttle attempt). The checks are the
 * same; what these tests pin is when the rows are read: never before a throttling delay is over.
 */
describe(`the token endpoint's read ahead (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  /** One failure from the test address, so the next token request waits (100 ms) before its checks. */
  async function failOnce(client = WEB_CLIENT): Promise<void> {
    assert.equal((await exchangeCode(t, "not-a-code", {}, client)).statusCode, 400);
  }

  async function secretRegeneratedWhileDelayed<T>(request: () => Promise<T>): Promise<T> {
    const client = await t.services.oauth.findClient(WEB_CLIENT.clientId);
    assert.ok(client);
    t.delays.hold();
    const pending = request();
    try {
      await t.delays.until(() => t.delays.held === 1);
      const regenerated = await t.services.oauth.clients.regenerateSecret(client.id);
      assert.ok(regenerated.ok);
    } finally {
      t.delays.release();
    }
    return pending;
  }

  it("a token request delayed by the throttle checks its client as it is after the wait (code exchange)", async () => {
    const code = await issueCode(t);
    await failOnce();
    const response = await secretRegeneratedWhileDelayed(() => exchangeCode(t, code));
    assert.deepEqual(t.sleeps.slice(-1), [100]);
    assert.equal(response.statusCode, 401, response.body);
    assert.equal(response.json().error, "invalid_client");
  });

  it("a token request delayed by the throttle checks its client as it is after the wait (refresh)", async () => {
    const client = await t.services.oauth.findClient(WEB_CLIENT.clientId);
    assert.ok(client);
    const current = { ...WEB_CLIENT, secret: client.secret };
    const tokens = (await exchangeCode(t, await issueCode(t), {}, current)).json();
    assert.ok(tokens.refresh_token);
    await failOnce(current);
    const response = await secretRegeneratedWhileDelayed(() => refresh(t, tokens.refresh_token, {}, current));
    assert.equal(response.statusCode, 401, response.body);
    assert.equal(response.json().error, "invalid_client");
  });

  it("an undelayed exchange reads its client and code once and redeems as before", async () => {
    const client = await t.services.oauth.findClient(WEB_CLIENT.clientId);
    assert.ok(client);
    const current = { ...WEB_CLIENT, secret: client.secret };
    // A success resets the address's failures: no delay from here on.
    const first = await exchangeCode(t, await issueCode(t), {}, current);
    assert.equal(first.statusCode, 200, first.body);
    const sleeps = t.sleeps.length;
    const code = await issueCode(t);
    const response = await exchangeCode(t, code, {}, current);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(t.sleeps.length, sleeps);
    // Single use still holds: the same code again is a replay.
    assert.equal((await exchangeCode(t, code, {}, current)).statusCode, 400);
  });
});
