import assert from "node:assert/strict";
import { createLocalJWKSet, type JWTPayload, jwtVerify } from "jose";
import { authorizeUrl, consent, createOAuthTestApp, exchangeCode, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import type { FormClient } from "../support/browser-form.js";

/** The issuer of a test app addressed through inject (Host: localhost:80). */
export const ISSUER = "http://localhost:80/index.php/apps/oauth2";
export const JWKS = "/index.php/apps/oauth2/jwks";
export const END_SESSION = "/index.php/apps/oauth2/end-session";
export const POST_LOGOUT = "https://app.example.com/logged-out";

/** The OAuth test app (alice, WEB_CLIENT), WEB_CLIENT with a registered post-logout redirect URI. */
export async function createOidcTestApp(options: { trusted?: boolean } = {}): Promise<TestApp> {
  const t = await createOAuthTestApp({ ...WEB_CLIENT, trusted: options.trusted ?? false });
  const modified = await t.services.oauth.clients.modify(WEB_CLIENT.name, "post-logout-redirect-url", POST_LOGOUT);
  assert.ok(modified.ok);
  return t;
}

/** An OpenID Connect authorization request of WEB_CLIENT. */
export function openIdUrl(params: Record<string, string> = {}): string {
  return authorizeUrl(WEB_CLIENT, { scope: "openid profile email", nonce: "n-0S6_WzA2Mj", state: "st", ...params });
}

/** Consent through the page; returns the code of the redirect. */
export async function openIdCode(browser: FormClient, params: Record<string, string> = {}): Promise<string> {
  const location = new URL(await consent(browser, openIdUrl(params)));
  const code = location.searchParams.get("code");
  assert.ok(code, location.href);
  return code;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  id_token?: string;
}

export async function openIdTokens(t: TestApp, browser: FormClient, params: Record<string, string> = {}): Promise<TokenSet> {
  const response = await exchangeCode(t, await openIdCode(browser, params));
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

/** Verifies an ID token with the published JWKS (jose), as a relying party would, at the app's clock. */
export async function verifyIdToken(t: TestApp, idToken: string | undefined): Promise<JWTPayload> {
  assert.ok(idToken, "an id_token");
  const jwks = (await t.app.inject({ method: "GET", url: JWKS })).json();
  const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: ISSUER,
    audience: WEB_CLIENT.clientId,
    algorithms: ["RS256"],
    currentDate: new Date(t.clock.nowSeconds() * 1000),
  });
  assert.equal(protectedHeader.alg, "RS256");
  assert.ok(protectedHeader.kid, "a kid in the header");
  return payload;
}
