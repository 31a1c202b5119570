import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  authorizeUrl,
  consent,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  loggedIn,
  PASSWORD,
  WEB_CLIENT,
} from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { fileEvent, get, ocsData, publish } from "./support.js";

describe("end to end: an OAuth access token reads the stream (Authorization: Bearer)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  it("reads alice's stream with a token from the authorization service, and is refused with a bad one", async () => {
    const [id] = await publish(t, fileEvent("alice"));
    const tokens = JSON.parse((await exchangeCode(t, await issueCode(t))).body) as { access_token: string };
    assert.ok(tokens.access_token);
    const response = await get(t, "/ocs/v2.php/apps/activity/api/v2/activity?format=json", `Bearer ${tokens.access_token}`);
    assert.equal(response.statusCode, 200);
    const data = ocsData(response);
    assert.ok(
      data.some((e) => e.activity_id === id && e.affecteduser === "alice"),
      "the published file activity is in alice's stream",
    );
    assert.ok(data.every((e) => e.affecteduser === "alice"));
    const bad = await get(t, "/ocs/v2.php/apps/activity/api/v2/activity?format=json", "Bearer not-a-token");
    assert.equal(bad.statusCode, 401);
  });

  it("authorizing a client through consent and revoking it in personal settings land in alice's security stream", async () => {
    const browser = await loggedIn(t);
    const location = await consent(browser, authorizeUrl(WEB_CLIENT));
    const code = new URL(location).searchParams.get("code")!;
    const tokens = JSON.parse((await exchangeCode(t, code)).body) as { access_token: string };
    const afterGrant = await get(t, "/index.php/apps/activity/api/v2/activity/security", `Bearer ${tokens.access_token}`);
    assert.equal(afterGrant.statusCode, 200);
    assert.ok(
      ocsData(afterGrant).some(
        (e) => e.app === "oauth2" && e.subject_prepared === "You granted <parameter>Web App</parameter> access to your account",
      ),
    );

    // Revoke through the personal page's button, as the user would.
    const page = await browser.get("/index.php/settings/personal");
    const action = /action="([^"]*\/revoke)"/.exec(page.body)?.[1];
    assert.ok(action, "the personal page lists the authorized client with a Revoke form");
    const revoked = await browser.post(action, { requesttoken: requestTokenOf(page.body) });
    assert.ok(revoked.statusCode < 400, revoked.body);

    const stream = await get(
      t,
      "/index.php/apps/activity/api/v2/activity/security",
      `Basic ${Buffer.from(`alice:${PASSWORD}`).toString("base64")}`,
    );
    const subjects = ocsData(stream).map((e) => e.subject_prepared);
    assert.equal(subjects[0], "The access of <parameter>Web App</parameter> to your account was revoked");
    assert.ok(subjects.includes("You granted <parameter>Web App</parameter> access to your account"));
  });
});
