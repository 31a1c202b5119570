import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { basic, createOAuthTestApp, exchangeCode, issueCode, PASSWORD } from "../oauth/support.js";
import { answerChallenge, currentCode, enableTotp } from "../second-factor/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { eventsSince, lastEventId } from "./support.js";

const OCS_USER = "/ocs/v2.php/cloud/user?format=json";

describe("audit sign-in events: interactive sign-ins and refused Basic, not every authenticated request", () => {
  let t: TestApp;

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "tess", password: PASSWORD }));
  });
  after(async () => {
    await t.close();
  });

  it("a refused HTTP Basic password is one sign_in.failed with the factor basic", async () => {
    const from = await lastEventId(t);
    const response = await t.app.inject({
      method: "GET",
      url: OCS_USER,
      headers: { authorization: basic("alice", "wrong"), "ocs-apirequest": "true" },
    });
    assert.equal(response.statusCode, 401);
    const events = await eventsSince(t, from);
    assert.deepEqual(
      events.map((e) => [e.kind, e.uid, e.detail]),
      [["sign_in.failed", "alice", { factor: "basic", reason: "wrong_credentials" }]],
    );
  });

  it("requests with a valid password, app password or bearer token write no event", async () => {
    const { secret } = accepted(await t.services.appPasswords.create("alice", "Phone"));
    const tokens = await exchangeCode(t, await issueCode(t));
    const from = await lastEventId(t);
    for (const authorization of [basic("alice", PASSWORD), basic("alice", secret), `Bearer ${tokens.json().access_token}`]) {
      for (let i = 0; i < 3; i++) {
        const response = await t.app.inject({
          method: "GET",
          url: OCS_USER,
          headers: { authorization, "ocs-apirequest": "true" },
        });
        assert.equal(response.statusCode, 200, authorization);
      }
    }
    assert.deepEqual(await eventsSince(t, from), []);
  });

  it("a sign-in with a second factor is one sign_in.succeeded, written when the factor passes", async () => {
    const secret = await enableTotp(t, "tess");
    const browser = new FormClient(t.app);
    const from = await lastEventId(t);
    const password = await browser.login("tess", PASSWORD);
    assert.equal(password.statusCode, 303);
    assert.deepEqual(await eventsSince(t, from, "sign_in.succeeded"), [], "not at the password");
    const wrong = await answerChallenge(browser, String(password.headers.location), "000000");
    assert.equal(wrong.statusCode, 401);
    const passed = await answerChallenge(browser, String(password.headers.location), currentCode(t, secret));
    assert.equal(passed.statusCode, 303);
    const events = await eventsSince(t, from);
    assert.deepEqual(
      events.map((e) => [e.kind, e.actor, e.detail]),
      [
        ["sign_in.failed", "tess", { factor: "totp", reason: "wrong_credentials" }],
        ["sign_in.succeeded", "tess", { factor: "totp", password: true }],
      ],
    );
  });
});
