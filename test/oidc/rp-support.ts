import assert from "node:assert/strict";
import type { TestApp } from "../support/app.js";
import type { FetchBrowser } from "../support/fetch-browser.js";
import { createOidcTestApp } from "./support.js";

/**
 * A listening OIDC test app for relying-party libraries, its clock set to the real time: the
 * libraries check `exp` and `iat` against their own clock.
 */
export async function listeningOidcApp(): Promise<{ t: TestApp; base: string }> {
  const t = await createOidcTestApp();
  t.clock.advance(Math.floor(Date.now() / 1000) - t.clock.nowSeconds());
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const address = t.app.server.address();
  assert.ok(address && typeof address === "object");
  return { t, base: `http://127.0.0.1:${address.port}` };
}

export async function isLoggedIn(browser: FetchBrowser): Promise<boolean> {
  return (await browser.request("/index.php/settings/personal")).status === 200;
}
