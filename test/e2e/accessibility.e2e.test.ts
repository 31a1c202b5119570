import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { createTestApp, type TestApp } from "../support/app.js";
import { browserSkipReason, launchBrowser, listenOnLoopback, type TestBrowser } from "../support/browser.js";
import { seedTour, TOUR } from "../support/page-tour.js";

/**
 * issue 19: every page (test/support/page-tour.ts walks them all, error states included) passes
 * axe-core at WCAG 2.2 AA with zero violations, in English at desktop width and in German (longer
 * words stretch buttons and headings) at phone width.
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function violationsOf(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe("accessibility scan of every page (axe-core, WCAG 2.2 AA)", { skip: browserSkipReason() }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let baseUrl: string;

  before(async () => {
    t = await createTestApp();
    await seedTour(t);
    baseUrl = await listenOnLoopback(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  // English on a desktop, German (longer words) on a phone: every page in both layouts and two languages.
  for (const [language, size] of [
    ["en", WIDTHS[0]],
    ["de", WIDTHS[1]],
  ] as const) {
    it(`every page has zero WCAG 2.2 AA violations (${language}, ${size.name} ${size.width} px)`, async () => {
      const { page } = browser;
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.setExtraHTTPHeaders({ "accept-language": language });
      const found: string[] = [];
      for (const stop of TOUR) {
        await stop.visit(page, baseUrl, t);
        assert.equal(await page.getAttribute("html", "lang"), language, `${stop.name}: lang follows the language`);
        for (const violation of await violationsOf(page)) found.push(`${stop.name}: ${violation}`);
      }
      assert.deepEqual(found, []);
    });
  }

  it("the tour reaches every page kind: login, consent, errors, activity, settings, admin, OIDC logout", () => {
    const names = TOUR.map((stop) => stop.name);
    for (const name of [
      "login",
      "consent",
      "form-post",
      "authorize-error-unknown-client",
      "activity",
      "personal-settings",
      "password-confirmation",
      "admin-users",
      "admin-users-search",
      "admin-user",
      "admin-user-refused",
      "admin-settings",
      "admin-settings-refused",
      "admin-applications",
      "admin-groups",
      "admin-security",
      "admin-security-audit-filtered",
      "oidc-logout-confirm",
      "logged-out",
      "logout-link-invalid",
      "second-factor-setup",
      "recovery-codes",
      "second-factor-challenge",
    ]) {
      assert.ok(names.includes(name), name);
    }
  });
});
