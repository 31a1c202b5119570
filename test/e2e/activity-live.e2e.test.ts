import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AxeBuilder } from "@axe-core/playwright";
import { fileEvent, publish } from "../activity/support.js";
import type { TestApp } from "../support/app.js";
import { createTestApp } from "../support/app.js";
import { browserSkipReason, launchBrowser, listenOnLoopback, submitLoginForm, type TestBrowser } from "../support/browser.js";
import { runOcc } from "../support/occ.js";
import { accepted } from "../support/results.js";

/**
 * The web activity page in real Chromium: it opens the push socket with a pre-auth token fetched
 * with the session (src/http/activity-live-script.ts) and puts new entries in without a reload.
 */
describe("the activity page updates live in a real browser (Chromium)", { skip: browserSkipReason() }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let base: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "correct horse", displayName: "Alice Liddell" }));
    // Times from the test's clock, so the stream's order is known (occ's own clock is the real one).
    await publish(
      t,
      fileEvent("alice", {
        subjectparams: [{ type: "file", value: "/First.txt", id: 1 }],
        object_name: "/First.txt",
        datetime: t.clock.nowSeconds() - 60,
      }),
    );
    base = await listenOnLoopback(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("shows an activity `./occ activity:publish` wrote, and one the API wrote, at the top without a reload, and says so politely", async () => {
    const { page } = browser;
    await page.goto(`${base}/index.php/login`);
    await submitLoginForm(page, "alice", "correct horse");
    await page.goto(`${base}/index.php/apps/activity/`);
    await page.locator('#activity-live[data-state="open"]').waitFor({ state: "attached" });
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const created = {
      app: "files",
      type: "file_created",
      affecteduser: "alice",
      user: "alice",
      subject: "created_self",
      subjectparams: [{ type: "file", value: "/Live report.odt", id: 21 }],
      object_type: "files",
      object_id: 21,
      object_name: "/Live report.odt",
      datetime: t.clock.nowSeconds() - 30,
    };
    const result = await runOcc(["activity:publish"], t.testStorage, {}, `${JSON.stringify(created)}\n`);
    assert.equal(result.code, 0, result.stderr);
    const first = page.locator("#activity-stream > li").first();
    await first.filter({ hasText: "Live report.odt" }).waitFor();
    const [one] = result.stdout.trim().split(/\s+/);
    assert.equal(await first.getAttribute("data-activity-id"), one, "the entry occ wrote");
    assert.equal(await page.locator("#activity-live-status").textContent(), "New activities were added at the top of the list.");

    await publish(
      t,
      fileEvent("alice", {
        user: "bob",
        type: "shared",
        app: "files_sharing",
        subject: "shared_with_by",
        subjectparams: [
          { type: "file", value: "/Shared plan.odt", id: 22 },
          { type: "user", value: "bob" },
        ],
        object_id: 22,
        object_name: "/Shared plan.odt",
        datetime: t.clock.nowSeconds(),
      }),
    );
    await first.filter({ hasText: "Shared plan.odt" }).waitFor();
    const texts = await page.locator("#activity-stream > li .activity-subject").allTextContents();
    assert.deepEqual(
      texts.map((text) => text.trim()),
      ["bob shared Shared plan.odt with you", "You created Live report.odt", "You changed First.txt"],
    );
    assert.equal(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), true, "no reload");
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    assert.deepEqual(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      [],
    );
  });

  it("offers a reload link once the socket is closed (the user's credentials ended): no polling", async () => {
    const { page } = browser;
    assert.equal(await page.locator("#activity-live-stopped").isHidden(), true);
    await t.services.push.credentialsEnded("alice");
    const stopped = page.locator("#activity-live-stopped");
    await stopped.waitFor({ state: "visible" });
    assert.equal(await stopped.locator("a").getAttribute("href"), "/index.php/apps/activity/all");
  });
});
