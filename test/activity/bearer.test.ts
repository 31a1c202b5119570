import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { oauthActivityEvents } from "../../src/activity/security-events.js";
import { createOAuthTestApp, exchangeCode, issueCode } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
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
    assert.deepEqual(
      ocsData(response).map((e) => [e.activity_id, e.affecteduser]),
      [[id, "alice"]],
    );
    const bad = await get(t, "/ocs/v2.php/apps/activity/api/v2/activity?format=json", "Bearer not-a-token");
    assert.equal(bad.statusCode, 401);
  });

  it("the OAuth listener adapter publishes authorized/revoked events into the user's security stream", async () => {
    const events = oauthActivityEvents(t.services.activity);
    await events.clientAuthorized("alice", { id: "cid", name: "Web App" });
    await events.clientRevoked("alice", { id: "cid", name: "Web App" });
    const tokens = JSON.parse((await exchangeCode(t, await issueCode(t))).body) as { access_token: string };
    const response = await get(t, "/index.php/apps/activity/api/v2/activity/security", `Bearer ${tokens.access_token}`);
    assert.equal(response.statusCode, 200);
    const subjects = ocsData(response).map((e) => e.subject_prepared);
    assert.ok(subjects.includes("The access of <parameter>Web App</parameter> to your account was revoked"));
    assert.ok(subjects.includes("You granted <parameter>Web App</parameter> access to your account"));
  });
});
