import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "../support/app.js";
import { type FormClient, requestTokenOf } from "../support/browser-form.js";
import { referenceTotp } from "./reference-totp.js";

export const CHALLENGE = "/index.php/login/challenge";
export const SETUP = "/index.php/login/setup-second-factor";
export const PERSONAL = "/index.php/settings/personal";

/**
 * Enables TOTP for `uid` as the settings form does (a pending secret, enabled by a correct code),
 * the code computed by the reference implementation; then the clock moves one step on, so the
 * enrolment's code is not the next challenge's. Returns the Base32 secret.
 */
export async function enableTotp(t: TestApp, uid: string): Promise<string> {
  const secret = await t.services.totp.begin(uid);
  assert.ok(secret, "no TOTP yet");
  assert.equal(await t.services.totp.confirm(uid, referenceTotp(secret, t.clock.nowSeconds())), true);
  t.clock.advance(30);
  return secret;
}

/** The code the user's app shows now. */
export function currentCode(t: TestApp, secret: string): string {
  return referenceTotp(secret, t.clock.nowSeconds());
}

/** The browser is on the challenge page (following the login's redirect) and submits `code` with `provider`. */
export async function answerChallenge(
  browser: FormClient,
  location: string,
  code: string,
  provider: "totp" | "backup_codes" = "totp",
): Promise<LightMyRequestResponse> {
  const page = await browser.get(location);
  assert.equal(page.statusCode, 200, page.body);
  const redirect = /name="redirect_url" value="([^"]*)"/.exec(page.body)?.[1];
  const form: Record<string, string> = { requesttoken: requestTokenOf(page.body), provider, code };
  if (redirect !== undefined) form.redirect_url = redirect.replace(/&amp;/g, "&");
  return browser.post(CHALLENGE, form);
}

export function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}
