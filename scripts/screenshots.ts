/**
 * `npm run screenshots` (issue 19): starts Keystream on a temporary data directory with seeded
 * users, clients, an app password and activities (test/support/page-tour.ts), visits every page of
 * the tour in Chromium at desktop (1280 px) and phone (390 px) widths in English, German and French,
 * and writes full-page PNGs to screenshots/<language>/<page>-<width>.png (git-ignored), so a
 * reviewer can look at every page without driving a browser by hand.
 *
 *   npm run screenshots                      # all three languages
 *   SCREENSHOT_LANGUAGES=de npm run screenshots
 */
import fs from "node:fs";
import path from "node:path";
import { createTestApp } from "../test/support/app.js";
import { launchBrowser, listenOnLoopback } from "../test/support/browser.js";
import { seedTour, TOUR } from "../test/support/page-tour.js";

const OUT = path.resolve(process.env.SCREENSHOT_DIR ?? "screenshots");
const LANGUAGES = (process.env.SCREENSHOT_LANGUAGES ?? "en,de,fr")
  .split(",")
  .map((l) => l.trim())
  .filter(Boolean);
const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

async function main(): Promise<void> {
  const t = await createTestApp();
  const browser = await launchBrowser();
  try {
    await seedTour(t);
    const baseUrl = await listenOnLoopback(t);
    let written = 0;
    for (const language of LANGUAGES) {
      fs.mkdirSync(path.join(OUT, language), { recursive: true });
      for (const size of WIDTHS) {
        await browser.page.setViewportSize(size);
        await browser.page.setExtraHTTPHeaders({ "accept-language": language });
        for (const stop of TOUR) {
          await stop.visit(browser.page, baseUrl, t);
          const file = path.join(OUT, language, `${stop.name}-${size.width}.png`);
          await browser.page.screenshot({ path: file, fullPage: true });
          written++;
        }
      }
    }
    process.stderr.write(`${written} screenshots in ${OUT}\n`);
  } finally {
    await browser.close();
    await t.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
