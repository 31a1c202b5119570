import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ACTIVITY_LIVE_SCRIPT_PATH } from "../../src/http/activity-live-script.js";
import { fileEvent, publish } from "../activity/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { connectAs, listenForPush } from "./support.js";

const PRE_AUTH = "/index.php/apps/notify_push/pre_auth";

describe("the web activity page's live updates (push)", () => {
  let t: TestApp;
  let browser: FormClient;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "erin", password: "erin password" }));
    await publish(t, fileEvent("erin"));
    browser = new FormClient(t.app);
    await browser.login("erin", "erin password");
  });
  after(() => t.close());

  it("puts the live region, the websocket's URL and the same-origin script on a stream's first page", async () => {
    const page = await browser.get("/index.php/apps/activity/files");
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /<div id="activity-live" data-websocket="ws:\/\/localhost(:\d+)?\/push\/ws" data-pre-auth="\/index\.php\/apps\/notify_push\/pre_auth"/,
    );
    assert.match(page.body, /<p id="activity-live-status" class="visually-hidden" role="status" aria-live="polite"><\/p>/);
    assert.match(
      page.body,
      /<p id="activity-live-stopped" class="muted" hidden>Live updates stopped\. <a href="\/index\.php\/apps\/activity\/files">Reload the page<\/a><\/p>/,
    );
    assert.match(page.body, /<script src="\/index\.php\/apps\/activity\/js\/live-[0-9a-f]{16}\.js"><\/script>/);
    assert.match(String(page.headers["content-security-policy"]), /script-src 'self'/);
  });

  it("leaves a paged or sorted page as it is (nothing above it to insert)", async () => {
    for (const query of ["?since=1", "?sort=asc"]) {
      const page = await browser.get(`/index.php/apps/activity/${query}`);
      assert.equal(page.statusCode, 200, query);
      assert.doesNotMatch(page.body, /activity-live|live(-[0-9a-f]{16})?\.js/, query);
    }
  });

  it("serves the script same-origin as JavaScript, with nosniff", async () => {
    const script = await t.app.inject({ method: "GET", url: ACTIVITY_LIVE_SCRIPT_PATH });
    assert.equal(script.statusCode, 200);
    assert.equal(script.headers["content-type"], "text/javascript; charset=utf-8");
    assert.equal(script.headers["x-content-type-options"], "nosniff");
    assert.match(script.body, /"OCS-APIRequest": "true"/);
  });

  it("gives the browser session a pre-auth token only with the API's CSRF proof (OCS-APIRequest), and the token opens the socket", async () => {
    const cookie = browser.cookieHeader;
    const crossSite = await t.app.inject({ method: "POST", url: PRE_AUTH, headers: { cookie } });
    assert.equal(crossSite.statusCode, 403, "a cross-site form post carries the cookie but cannot set the header");
    const answer = await t.app.inject({ method: "POST", url: PRE_AUTH, headers: { cookie, "ocs-apirequest": "true" } });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers["cache-control"], "no-store");
    const url = await listenForPush(t.app);
    const socket = await connectAs(url, "", answer.body);
    assert.equal(await socket.next(), "authenticated");
    await publish(t, fileEvent("erin"));
    assert.equal(await socket.next(), "notify_activity");
    await socket.close();
  });
});
