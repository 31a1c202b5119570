import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { basic as clientBasic, createOAuthTestApp, PASSWORD, tokenRequest, userinfo, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { answerChallenge, CHALLENGE, currentCode, enableTotp } from "./support.js";

const DEVICE_AUTHORIZATION = "/index.php/apps/oauth2/api/v1/device_authorization";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * The device authorization grant (RFC 8628) for a user with a second factor: the verification page
 * is reached through the password and the challenge, and the device gets its tokens only after both.
 */
describe("a device login passes the second-factor challenge before the device gets tokens", () => {
  let t: TestApp;
  let secret = "";
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "dora", password: PASSWORD }));
    secret = await enableTotp(t, "dora");
  });
  after(() => t.close());

  const poll = (deviceCode: string) =>
    tokenRequest(
      t,
      { grant_type: DEVICE_GRANT, device_code: deviceCode },
      { authorization: clientBasic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
    );

  it("the verification link leads to the password, then the challenge, then the code's confirmation; tokens follow the approval", async () => {
    const started = await t.app.inject({
      method: "POST",
      url: DEVICE_AUTHORIZATION,
      payload: new URLSearchParams({ scope: "openid profile" }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: clientBasic(WEB_CLIENT.clientId, WEB_CLIENT.secret),
      },
    });
    assert.equal(started.statusCode, 200, started.body);
    const { device_code: deviceCode, verification_uri_complete: complete } = started.json();
    const link = new URL(complete);

    const browser = new FormClient(t.app, "198.51.100.40");
    const open = await browser.get(`${link.pathname}${link.search}`);
    assert.equal(open.statusCode, 303, "not logged in: to the login page");
    const back = new URL(String(open.headers.location), "http://x").searchParams.get("redirect_url") ?? "";
    const login = await browser.login("dora", PASSWORD, back);
    assert.ok(String(login.headers.location).startsWith(CHALLENGE), "the password alone leads to the challenge");

    // The half-finished login reaches no verification page, and the device is still waiting.
    const early = await browser.get(`${link.pathname}${link.search}`);
    assert.notEqual(early.statusCode, 200);
    assert.ok(!early.body.includes('id="device-consent"'));
    assert.equal((await poll(deviceCode)).json().error, "authorization_pending");

    const answered = await answerChallenge(browser, String(login.headers.location), currentCode(t, secret));
    assert.equal(answered.statusCode, 303);
    assert.equal(answered.headers.location, back, "back to the verification link");
    const entry = await browser.get(back);
    assert.equal(entry.statusCode, 200, entry.body);
    const userCode = link.searchParams.get("user_code") ?? "";
    const confirmation = await browser.post(link.pathname, { requesttoken: requestTokenOf(entry.body), user_code: userCode });
    assert.match(confirmation.body, /id="device-consent"/);
    const approved = await browser.post(link.pathname, {
      requesttoken: requestTokenOf(confirmation.body),
      user_code: userCode,
      decision: "approve",
    });
    assert.equal(approved.statusCode, 200, approved.body);

    t.clock.advance(10);
    const tokens = await poll(deviceCode);
    assert.equal(tokens.statusCode, 200, tokens.body);
    const claims = await userinfo(t, tokens.json().access_token);
    assert.equal(claims.json().sub, "dora");
  });
});
