import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { FORWARD_AUTH_PATH } from "../../src/http/routes/forward-auth.js";
import { basic, createOAuthTestApp, exchangeCode, issueCode, USERINFO } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";

/**
 * Forward authentication answers a reverse proxy on every request it passes on, so it may cost no
 * more than a UserInfo call: the bearer token read with its user in one statement, or an app
 * password's hash and then its user. Counted through the storage's query observer.
 */

function forwardAuth(app: FastifyInstance, headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({ method: "GET", url: FORWARD_AUTH_PATH, headers });
}

describe("forward authentication costs no more than a UserInfo call", () => {
  let t: TestApp;

  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  /** The statements one request runs, counted by the storage's query observer (no timing). */
  async function statementsOf(request: () => Promise<LightMyRequestResponse>): Promise<number> {
    // Earlier requests' audit events are written now, not counted as this request's statements.
    await t.services.audit.flush();
    let count = 0;
    t.services.storage.observeQueries(() => {
      count += 1;
    });
    try {
      const response = await request();
      assert.equal(response.statusCode, 200, response.body);
    } finally {
      t.services.storage.observeQueries((ms, failed) => t.services.metrics.observeQuery(ms, failed));
    }
    return count;
  }

  it("with a bearer token or an app password, it runs no more statements than UserInfo, and writes nothing on a repeated success", async () => {
    const accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
    const { secret } = accepted(await t.services.appPasswords.create("alice", "file sync"));
    for (const authorization of [`Bearer ${accessToken}`, basic("alice", secret)]) {
      // The first use of an app password records its last use (at most once a minute); measure after it.
      await forwardAuth(t.app, { authorization });
      const userinfo = await statementsOf(() => t.app.inject({ method: "GET", url: USERINFO, headers: { authorization } }));
      const forwarded = await statementsOf(() => forwardAuth(t.app, { authorization }));
      assert.ok(forwarded <= userinfo, `${authorization.split(" ")[0]}: ${forwarded} statements, UserInfo ${userinfo}`);
      const expected = authorization.startsWith("Bearer") ? 1 : 2;
      assert.equal(forwarded, expected, "the token read with its user; or the app password's hash, then its user");
    }
  });
});
