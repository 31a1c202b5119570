import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createOAuthTestApp, exchangeCode, issueCode, PNG, userinfo, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";
import { statementsOf } from "../support/statements.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * UserInfo reads the bearer token, its user and the user's avatar (whether there is one, and its
 * type) in one statement, so on PostgreSQL a UserInfo request is one round trip. The statements are counted through the storage's query observer (every statement sent,
 * through Kysely or directly on the SQLite handle); the count holds on both databases.
 */
describe(`a UserInfo request is one round trip to the database (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let accessToken: string;
  before(async () => {
    t = await createOAuthTestApp();
    accessToken = (await exchangeCode(t, await issueCode(t))).json().access_token;
  });
  after(() => t.close());

  it("a PostgreSQL userinfo is one round trip: token, user and avatar in one statement (user without an avatar)", async () => {
    await t.services.audit.flush(); // earlier requests' audit events are not this request's statements
    const { statements, result } = await statementsOf(t.services.storage, () => userinfo(t, accessToken));
    assert.equal(result.statusCode, 200, result.body);
    assert.deepEqual(result.json(), { sub: "alice", name: "Alice Liddell", email: "alice@example.com" });
    assert.equal(statements, 1);
  });

  it("a PostgreSQL userinfo is one round trip: token, user and avatar in one statement (user with an avatar)", async () => {
    accepted(await t.services.avatars.set("alice", PNG));
    try {
      await t.services.audit.flush(); // earlier requests' audit events are not this request's statements
      const { statements, result } = await statementsOf(t.services.storage, () => userinfo(t, accessToken));
      assert.equal(result.statusCode, 200, result.body);
      assert.equal(result.json().picture, "http://localhost:80/remote.php/dav/avatars/alice/96.png");
      assert.equal(statements, 1);
    } finally {
      await t.services.avatars.remove("alice");
    }
  });

  it("an OpenID Connect userinfo is one round trip too, its picture claim from the avatar read with the token", async () => {
    const openId = (await exchangeCode(t, await issueCode(t, WEB_CLIENT, { scope: "openid profile" }))).json();
    accepted(await t.services.avatars.set("alice", PNG));
    try {
      await t.services.audit.flush(); // earlier requests' audit events are not this request's statements
      const { statements, result } = await statementsOf(t.services.storage, () => userinfo(t, openId.access_token));
      assert.equal(result.statusCode, 200, result.body);
      assert.equal(result.json().picture, "http://localhost:80/remote.php/dav/avatars/alice/96.png");
      assert.equal(statements, 1);
    } finally {
      await t.services.avatars.remove("alice");
    }
    assert.equal((await userinfo(t, openId.access_token)).json().picture, undefined);
  });

  it("the avatar read with the token is the current one: removed, the next answer has no picture", async () => {
    accepted(await t.services.avatars.set("alice", PNG));
    assert.ok((await userinfo(t, accessToken)).json().picture);
    await t.services.avatars.remove("alice");
    assert.equal((await userinfo(t, accessToken)).json().picture, undefined);
  });
});
