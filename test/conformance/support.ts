import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { JWTPayload } from "jose";
import { AUTHORIZE, basic, loggedIn, PASSWORD, tokenRequest, WEB_CLIENT } from "../oauth/support.js";
import { createOidcTestApp, ISSUER, verifyIdToken } from "../oidc/support.js";
import type { TestApp } from "../support/app.js";
import { type FormClient, requestTokenOf } from "../support/browser-form.js";
import { formPostOf } from "../support/form-post.js";

/**
 * The relying party of the re-created OpenID Foundation OP plans (openid-certification/
 * conformance-suite, src/main/java/net/openid/conformance/openid/OIDCC*TestPlan.java): WEB_CLIENT,
 * a confidential client authenticating with client_secret_basic, the code flow, and the plan's
 * response mode: `default` (the query, Basic OP plan) or `form_post` (Form Post Basic OP plan,
 * the same modules with `response_mode=form_post`).
 */
export type PlanMode = "default" | "form_post";

export const NONCE = "n-0S6_WzA2Mj";
export const STATE = "af0ifjsldkj";

/** The shared state of a plan's modules: the app (made in `before`) and the response mode. */
export interface Plan {
  readonly mode: PlanMode;
  readonly t: TestApp;
}

/** A plan over a fresh OpenID test app (createOidcTestApp: alice, WEB_CLIENT untrusted). */
export function planOf(mode: PlanMode): Plan & { start(): Promise<void>; stop(): Promise<void> } {
  let app: TestApp | undefined;
  return {
    mode,
    get t(): TestApp {
      assert.ok(app, "the plan's app is started in before()");
      return app;
    },
    async start() {
      app = await createOidcTestApp();
    },
    async stop() {
      await app?.close();
    },
  };
}

/** The authorization request URL: code flow, `openid`, state, nonce, and the plan's response mode. */
export function requestUrl(plan: Plan, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: WEB_CLIENT.clientId,
    redirect_uri: WEB_CLIENT.redirectUri,
    scope: "openid",
    state: STATE,
    nonce: NONCE,
    ...(plan.mode === "form_post" ? { response_mode: "form_post" } : {}),
  });
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) query.delete(name);
    else query.set(name, value);
  }
  return `${AUTHORIZE}?${query}`;
}

/**
 * The authorization response the client receives, read the way the plan's response mode sends it:
 * a 303 to the redirect URI with the parameters in the query, or a page whose form posts them to
 * the redirect URI. Either way it carries `iss` (RFC 9207) and goes to the registered URI only.
 */
export function answerOf(plan: Plan, response: LightMyRequestResponse): URLSearchParams {
  let target: URL;
  let params: URLSearchParams;
  if (plan.mode === "form_post") {
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers.location, undefined);
    assert.match(String(response.headers["content-security-policy"]), /script-src 'self'/);
    const posted = formPostOf(response.body);
    target = new URL(posted.action);
    params = posted.params;
  } else {
    assert.equal(response.statusCode, 303, response.body);
    target = new URL(String(response.headers.location));
    assert.equal(target.hash, "", "the code flow answers in the query");
    params = target.searchParams;
  }
  assert.equal(`${target.origin}${target.pathname}`, WEB_CLIENT.redirectUri);
  assert.equal(params.get("iss"), ISSUER, "RFC 9207 iss");
  return params;
}

/**
 * Follows an authorization request as the logged-in user: the consent page when one is shown
 * (Allow pressed), and returns the response the client receives.
 */
export async function authorize(plan: Plan, browser: FormClient, url: string): Promise<URLSearchParams> {
  const first = await browser.get(url);
  if (first.statusCode === 200 && /id="oauth-consent"/.test(first.body)) {
    return answerOf(plan, await browser.post(url, { requesttoken: requestTokenOf(first.body) }));
  }
  return answerOf(plan, first);
}

/** The code of a successful authorization response, with the request's state echoed. */
export async function codeOf(plan: Plan, browser: FormClient, url: string): Promise<string> {
  const params = await authorize(plan, browser, url);
  assert.equal(params.get("error"), null, params.toString());
  assert.equal(params.get("state"), STATE);
  const code = params.get("code");
  assert.match(code ?? "", /^[A-Za-z0-9]{64}$/);
  return code as string;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
  token_type: string;
  scope: string;
  expires_in: number;
}

/** Redeems a code with client_secret_basic (the plans' default client authentication). */
export async function redeem(plan: Plan, code: string): Promise<Tokens> {
  const response = await tokenRequest(
    plan.t,
    { grant_type: "authorization_code", code, redirect_uri: WEB_CLIENT.redirectUri },
    { authorization: basic(WEB_CLIENT.clientId, WEB_CLIENT.secret) },
  );
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers["cache-control"], "no-store");
  return response.json();
}

/** The whole happy flow as alice: request, consent, code, tokens, the ID token verified (RS256, JWKS). */
export async function signIn(
  plan: Plan,
  params: Record<string, string | undefined> = {},
  browser?: FormClient,
): Promise<{ tokens: Tokens; idToken: JWTPayload; browser: FormClient }> {
  const session = browser ?? (await loggedIn(plan.t));
  const tokens = await redeem(plan, await codeOf(plan, session, requestUrl(plan, params)));
  assert.equal(tokens.token_type, "Bearer");
  const idToken = await verifyIdToken(plan.t, tokens.id_token);
  assert.equal(idToken.sub, "alice");
  return { tokens, idToken, browser: session };
}

/** Logs in as alice through the login form a redirect leads to; returns where the login sends the browser. */
export async function loginThrough(browser: FormClient, loginLocation: string): Promise<string> {
  const page = await browser.get(loginLocation);
  assert.equal(page.statusCode, 200, "the login form is shown");
  assert.match(page.body, /name="password"/);
  const back = new URL(loginLocation, "http://localhost").searchParams.get("redirect_url") as string;
  const login = await browser.post("/index.php/login", {
    user: "alice",
    password: PASSWORD,
    requesttoken: requestTokenOf(page.body),
    redirect_url: back,
  });
  assert.equal(login.statusCode, 303);
  return String(login.headers.location);
}

/** UserInfo by GET with the access token in the header (OIDC Core §5.3.1). */
export function userInfo(plan: Plan, accessToken: string): Promise<LightMyRequestResponse> {
  return plan.t.app.inject({
    method: "GET",
    url: "/index.php/apps/oauth2/api/v1/userinfo",
    headers: { authorization: `Bearer ${accessToken}` },
  });
}
