import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { referenceTotp } from "../../second-factor/reference-totp.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../support/browser.js";

/** The challenge page a login with a second factor goes to after the password (docs/security.md "Second factors"). */
const CHALLENGE_PATH = "/index.php/login/challenge";

/**
 * A user with TOTP: after the password the browser is on the challenge page and types the code
 * the user's authenticator app shows now (computed by the test's own RFC 6238 implementation).
 * `whilePending` runs on the challenge page before the code is entered: the login is half done.
 */
export interface BrowserSecondFactor {
  totpSecret: string;
  whilePending?: () => Promise<void>;
}

/**
 * The user's browser: the xdg-open shim hands it the URL the client opened (OAuth authorize, or
 * Login Flow v2 login); it logs in and consents as a person would. One context (one cookie jar) for the whole test, so the later
 * revoke in personal settings happens in the same logged-in session.
 */
export class UserBrowser {
  private constructor(
    private readonly browser: Browser,
    readonly context: BrowserContext,
  ) {}

  /** `home`: the browser's HOME (its crash-report and cache folders), inside the test's temporary directory. */
  static async launch(home: string): Promise<UserBrowser> {
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_CACHE_HOME: `${home}/.cache` };
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
      env,
    });
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
    secondFactor?: BrowserSecondFactor,
  ): Promise<{ listenerStatus: number; listenerUrl: string; finalUrl: string; body: string }> {
    const redirect = new URL(new URL(authorizeUrl).searchParams.get("redirect_uri") ?? "http://localhost");
    const page = await this.context.newPage();
    try {
      const listenerResponse = page.waitForResponse((r) => r.url().startsWith(`${redirect.origin}/?`), { timeout: 60_000 });
      listenerResponse.catch(() => undefined); // observed below; never an unhandled rejection
      await page.goto(authorizeUrl);
      await this.logInIfAsked(page, user, password, secondFactor);
      await page.locator("#oauth-consent #authorize").click();
      const response = await listenerResponse;
      await page.waitForLoadState("load").catch(() => undefined);
      const body = await page.content().catch(() => "");
      return { listenerStatus: response.status(), listenerUrl: response.url(), finalUrl: page.url(), body };
    } catch (error) {
      throw new Error(`browser at ${page.url()}: ${(error as Error).message}\n${await pageText(page)}`);
    } finally {
      await closeQuietly(page);
    }
  }

  /**
   * Login Flow v2 in the browser: opens the `login` URL the client handed to xdg-open, logs in if
   * asked, and presses **Grant access** on the page naming the application; returns the page the
   * browser ends on (Keystream's "account connected" page).
   */
  async grantLoginFlow(
    loginUrl: string,
    user: string,
    password: string,
    secondFactor?: BrowserSecondFactor,
  ): Promise<{ finalUrl: string; text: string }> {
    const page = await this.context.newPage();
    try {
      await page.goto(loginUrl);
      await this.logInIfAsked(page, user, password, secondFactor);
      const grant = page.getByRole("button", { name: "Grant access" });
      await grant.waitFor({ state: "visible" });
      await Promise.all([page.waitForLoadState("load"), grant.click()]);
      await page.waitForLoadState("load").catch(() => undefined);
      return { finalUrl: page.url(), text: await pageText(page) };
    } catch (error) {
      throw new Error(`browser at ${page.url()}: ${(error as Error).message}\n${await pageText(page)}`);
    } finally {
      await closeQuietly(page);
    }
  }

  private async logInIfAsked(page: Page, user: string, password: string, secondFactor?: BrowserSecondFactor): Promise<void> {
    if (await page.locator('input[name="password"]').count()) {
      await page.fill('input[name="user"]', user);
      await page.fill('input[name="password"]', password);
      await Promise.all([page.waitForLoadState("load"), page.click("#submit")]);
      if (secondFactor) await answerTotpChallenge(page, secondFactor);
    }
  }

  /**
   * Personal settings in a browser of its own (another device, say): logs in with the password,
   * sets up TOTP (the key shown as text, as for typing it into an app) and enables it with a code;
   * returns the Base32 key. The code given is the previous 30-second step's, which the window of
   * one step either side accepts (RFC 6238 §5.2): every later login's current code is then of a
   * later step than the one enrolment used, so none is refused as a replay.
   */
  async enrolTotp(personalSettingsUrl: string, user: string, password: string): Promise<string> {
    const context = await this.browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    try {
      await page.goto(personalSettingsUrl);
      await this.logInIfAsked(page, user, password);
      await Promise.all([page.waitForLoadState("load"), page.click('#totp-begin-form button[type="submit"]')]);
      const secret = ((await page.locator("#totp-secret").textContent()) ?? "").trim();
      if (!/^[A-Z2-7]{16,}$/.test(secret)) throw new Error(`no TOTP key on the page: "${secret}"`);
      await page.fill("#totp-enable-code", referenceTotp(secret, Date.now() / 1000 - 30));
      await Promise.all([page.waitForLoadState("load"), page.click("#totp-enable-submit")]);
      await page.locator("#totp-enabled").waitFor({ state: "visible" });
      return secret;
    } catch (error) {
      throw new Error(`browser at ${page.url()}: ${(error as Error).message}\n${await pageText(page)}`);
    } finally {
      await closeQuietly(page);
      await context.close().catch(() => undefined);
    }
  }

  /**
   * Personal settings → "Revoke" in the row of the named entry: an OAuth authorized application
   * (`#oauth2-authorized`, the default) or an app password (`#app-password-list`).
   */
  async revokeInPersonalSettings(settingsUrl: string, name: string, list = "#oauth2-authorized"): Promise<void> {
    const page = await this.context.newPage();
    try {
      await page.goto(settingsUrl);
      const row = page.locator(`${list} tr`, { hasText: name });
      const answered = page.waitForResponse(
        (r) => /\/revoke$/.test(new URL(r.url()).pathname) && r.request().method() === "POST",
      );
      await row.locator('button[type="submit"]').click();
      const response = await answered;
      if (response.status() >= 400) throw new Error(`the revoke answered HTTP ${response.status()}`);
    } catch (error) {
      throw new Error(`browser at ${page.url()}: ${(error as Error).message}\n${await pageText(page)}`);
    } finally {
      await closeQuietly(page);
    }
  }

  async close(): Promise<void> {
    const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
    await bounded(this.context.close());
    await bounded(this.browser.close());
  }
}

/** On the challenge page after the password: the TOTP code the user's app shows now. */
async function answerTotpChallenge(page: Page, secondFactor: BrowserSecondFactor): Promise<void> {
  if (new URL(page.url()).pathname !== CHALLENGE_PATH) {
    throw new Error(`the password led to ${page.url()}, not to the second-factor challenge`);
  }
  await secondFactor.whilePending?.();
  await page.fill("#challenge-totp-code", referenceTotp(secondFactor.totpSecret, Date.now() / 1000));
  await Promise.all([page.waitForLoadState("load"), page.click("#challenge-totp-submit")]);
}

/** page.close() with a bound: a page stuck in a navigation must not hang the test. */
async function closeQuietly(page: Page): Promise<void> {
  await Promise.race([page.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
}

export async function pageText(page: Page): Promise<string> {
  try {
    return ((await page.locator("body").textContent()) ?? "").replace(/\s+/g, " ").slice(0, 2000);
  } catch {
    return "(no page text)";
  }
}
