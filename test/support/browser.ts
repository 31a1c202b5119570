import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { createTestApp, type TestApp } from "./app.js";
import { accepted } from "./results.js";

/**
 * Real-browser tests: Debian's Chromium (`apt-get install chromium`) driven by playwright-core,
 * headless, with a throw-away profile. Reusable by any module's page tests (login, OAuth consent…).
 *
 *   describe("…", { skip: browserSkipReason() }, () => {
 *     let b: TestBrowser;
 *     before(async () => { b = await launchBrowser(); });
 *     after(() => b.close());
 *     …
 *   });
 *
 * When Chromium is missing, a local run skips with the reason shown; under CI (CI=true) the tests
 * run and fail with a clear message, so a CI machine without a browser can never pass silently.
 */
export const CHROMIUM_PATH = process.env.KEYSTREAM_CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless on a machine without network: no sandbox (root), no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

function chromiumInstalled(): boolean {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function missingMessage(): string {
  return `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (or set KEYSTREAM_CHROMIUM_PATH)`;
}

/** For `describe(name, { skip: browserSkipReason() }, …)`: false when the tests must run. */
export function browserSkipReason(): string | false {
  if (chromiumInstalled()) return false;
  if (process.env.CI === "true" || process.env.CI === "1") return false; // launchBrowser() fails loudly instead
  return `${missingMessage()} — browser tests skipped (they are required under CI=true)`;
}

export interface TestBrowser {
  context: BrowserContext;
  /** A first tab, ready to use. */
  page: Page;
  /** Where screenshots go: $KEYSTREAM_SCREENSHOT_DIR, or a temporary directory kept after the run. */
  screenshotDir: string;
  /** Saves a full-page PNG of `page` (default: the first tab) and returns its path. */
  screenshot(name: string, page?: Page): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!chromiumInstalled()) throw new Error(`${missingMessage()}; .ci/run installs it on CI machines`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-chromium-"));
  const screenshotDir = process.env.KEYSTREAM_SCREENSHOT_DIR
    ? path.resolve(process.env.KEYSTREAM_SCREENSHOT_DIR)
    : fs.mkdtempSync(path.join(os.tmpdir(), "keystream-screenshots-"));
  fs.mkdirSync(screenshotDir, { recursive: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1000, height: 800 },
      timeout: 30_000,
    });
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    screenshotDir,
    async screenshot(name, target = page) {
      const file = path.join(screenshotDir, `${name.replace(/[^A-Za-z0-9_.-]+/g, "-")}.png`);
      await target.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Makes a test app listen on 127.0.0.1 on a free port; returns its base URL (no trailing slash). */
export async function listenOnLoopback(t: Pick<TestApp, "app">): Promise<string> {
  const address = await t.app.listen({ host: "127.0.0.1", port: 0 });
  return address.replace(/\/$/, "");
}

/**
 * Fills and submits Keystream's login form on `page` (which must show it) and waits for the
 * next page to load. Used directly and wherever a flow passes through the login (OAuth).
 */
export async function submitLoginForm(page: Page, user: string, password: string): Promise<void> {
  await page.locator("#login-form").waitFor();
  await page.fill("#user", user);
  await page.fill("#password", password);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("#submit")]);
}

/** A test app serving on loopback with user alice, and a browser to visit it. */
export interface AppInBrowser {
  readonly t: TestApp;
  readonly browser: TestBrowser;
  /** The app's base URL (no trailing slash). */
  readonly baseUrl: string;
}

/**
 * Registers `before`/`after` hooks in the enclosing `describe`: a fresh test app with user alice
 * (password "correct horse", display name Alice Liddell) listening on 127.0.0.1, and a launched
 * browser; both closed afterwards. The returned object is filled in once `before` has run.
 */
export function appInBrowserWithAlice(): AppInBrowser {
  let t: TestApp | undefined;
  let browser: TestBrowser | undefined;
  let baseUrl: string | undefined;
  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", password: "correct horse", displayName: "Alice Liddell" }));
    baseUrl = await listenOnLoopback(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("appInBrowserWithAlice: used before its before() hook ran");
    return value;
  };
  return {
    get t() {
      return started(t);
    },
    get browser() {
      return started(browser);
    },
    get baseUrl() {
      return started(baseUrl);
    },
  };
}
