import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium, headless, with no background traffic (the machine has no network). */
export const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The user's browser: the xdg-open shim hands it the authorize URL the client opened; it logs in
 * and consents as a person would. One context (one cookie jar) for the whole test, so the later
 * revoke in personal settings happens in the same logged-in session.
 */
export class UserBrowser {
  private constructor(
    private readonly browser: Browser,
    readonly context: BrowserContext,
  ) {}

  static async launch(): Promise<UserBrowser> {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
    // The test CA is trusted only inside the client's mount namespace; the browser just ignores it.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(20_000);
    return new UserBrowser(browser, context);
  }

  /**
   * Opens the authorize URL, logs in if asked, consents, and returns what the client's local
   * listener answered (status and final URL) — 303 to message_url or 200 "Login Successful".
   */
  async authorize(
    authorizeUrl: string,
    user: string,
    password: string,
  ): Promise<{ listenerStatus: number; listenerUrl: string; finalUrl: string; body: string }> {
    const redirect = new URL(new URL(authorizeUrl).searchParams.get("redirect_uri") ?? "http://localhost");
    const page = await this.context.newPage();
    try {
      const listenerResponse = page.waitForResponse((r) => r.url().startsWith(`${redirect.origin}/?`), { timeout: 60_000 });
      listenerResponse.catch(() => undefined); // observed below; never an unhandled rejection
      await page.goto(authorizeUrl);
      if (await page.locator('input[name="password"]').count()) {
        await page.fill('input[name="user"]', user);
        await page.fill('input[name="password"]', password);
        await Promise.all([page.waitForLoadState("load"), page.click("#submit")]);
      }
      await page.locator("#oauth-consent #authorize").click();
      const response = await listenerResponse;
      await page.waitForLoadState("load").catch(() => undefined);
      const body = await page.content().catch(() => "");
      return { listenerStatus: response.status(), listenerUrl: response.url(), finalUrl: page.url(), body };
    } catch (error) {
      throw new Error(`browser at ${page.url()}: ${(error as Error).message}\n${await pageText(page)}`);
    } finally {
      await page.close();
    }
  }

  async newPage(): Promise<Page> {
    return this.context.newPage();
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
  }
}

export async function pageText(page: Page): Promise<string> {
  try {
    return (await page.locator("body").innerText()).slice(0, 2000);
  } catch {
    return "(no page text)";
  }
}
