import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { FORWARD_AUTH_PATH } from "../../src/http/routes/forward-auth.js";
import { createOAuthTestApp, exchangeCode, issueCode, loggedIn, PASSWORD, refresh, userinfo } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { type FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

const PERSONAL = "/index.php/settings/personal";
const NEW_PASSWORD = "a brand new password";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

describe("a password change can end app passwords and OAuth grants", () => {
  let t: TestApp;
  let appPassword: string;
  let tokens: { access_token: string; refresh_token: string };
  let browser: FormClient;

  // Each test starts from alice with one app password, one OAuth client's tokens and a browser session.
  beforeEach(async () => {
    t = await createOAuthTestApp();
    appPassword = accepted(await t.services.appPasswords.create("alice", "Firefox on Windows")).secret;
    tokens = (await exchangeCode(t, await issueCode(t))).json();
    browser = await loggedIn(t);
  });
  afterEach(() => t.close());

  const forwardAuth = (authorization: string) =>
    t.app.inject({ method: "GET", url: FORWARD_AUTH_PATH, headers: { authorization } });
  const ocsUser = (authorization: string) =>
    t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/cloud/user?format=json",
      headers: { authorization, "ocs-apirequest": "true" },
    });
  const changePassword = async (fields: Record<string, string>): Promise<LightMyRequestResponse> =>
    browser.post(`${PERSONAL}/password`, {
      requesttoken: requestTokenOf((await browser.get(PERSONAL)).body),
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      ...fields,
    });

  it("the password form offers it as a labelled checkbox, ticked by default", async () => {
    const page = (await browser.get(PERSONAL)).body;
    assert.match(
      page,
      /<label class="check" for="password-sign-out-devices"><input type="checkbox" id="password-sign-out-devices" name="sign_out_devices" value="1" checked> Also sign out every device and application: revoke all app passwords and authorized applications/,
    );
  });

  it("with the option, the change revokes every app password and OAuth grant: the app password gets 401 at forward auth and OCS", async () => {
    assert.equal((await forwardAuth(basic("alice", appPassword))).statusCode, 200, "the app password works before");
    const changed = await changePassword({ sign_out_devices: "1" });
    assert.equal(changed.statusCode, 200);
    assert.match(
      changed.body,
      /id="password-changed">Your password was changed\. .*app passwords and authorized applications were revoked\./,
    );
    assert.equal((await forwardAuth(basic("alice", appPassword))).statusCode, 401, "forward auth refuses the app password");
    assert.equal((await ocsUser(basic("alice", appPassword))).statusCode, 401, "so does OCS");
    assert.deepEqual(await t.services.appPasswords.list("alice"), []);
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 401, "the OAuth access token is gone");
    assert.equal((await forwardAuth(`Bearer ${tokens.access_token}`)).statusCode, 401);
    const refreshed = await refresh(t, tokens.refresh_token);
    assert.equal(refreshed.statusCode, 400);
    assert.equal(refreshed.json().error, "invalid_grant", "and its refresh token with its grant");
    assert.deepEqual(await t.services.oauth.authorizedClients("alice"), []);
    assert.equal((await browser.get(PERSONAL)).statusCode, 200, "the browser that made the change stays signed in");
  });

  it("without the option, app passwords and OAuth grants stay", async () => {
    const changed = await changePassword({});
    assert.equal(changed.statusCode, 200);
    assert.match(
      changed.body,
      /id="password-changed">Your password was changed\. Your other browser sessions were signed out\.</,
    );
    assert.equal((await forwardAuth(basic("alice", appPassword))).statusCode, 200);
    assert.equal((await ocsUser(basic("alice", appPassword))).statusCode, 200);
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 200);
    assert.equal((await refresh(t, tokens.refresh_token)).statusCode, 200);
  });

  it("a refused change (wrong current password) ends nothing, whatever the option", async () => {
    const refused = await changePassword({ current_password: "not it", sign_out_devices: "1" });
    assert.equal(refused.statusCode, 403);
    assert.equal((await forwardAuth(basic("alice", appPassword))).statusCode, 200);
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 200);
  });

  it("another user's app passwords and grants are not touched", async () => {
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
    const bobs = accepted(await t.services.appPasswords.create("bob", "bob's phone")).secret;
    assert.equal((await changePassword({ sign_out_devices: "1" })).statusCode, 200);
    assert.equal((await forwardAuth(basic("bob", bobs))).statusCode, 200);
  });
});
