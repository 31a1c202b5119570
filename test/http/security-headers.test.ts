import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { authorizeUrl, createOAuthTestApp, PASSWORD, WEB_CLIENT } from "../oauth/support.js";
import { createProxiedApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { accepted } from "../support/results.js";

/**
 * issue 5: every HTML page carries the security headers, and the session cookie its flags.
 * The route list comes from the app itself (printRoutes), so a new GET route fails this test until
 * it is classified here as a page (visited and checked) or as a non-page (checked not to be HTML).
 */

/** Every GET route of the app, as registered (parsed from Fastify's route tree). */
function getRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│ ]*)[└├]── (.+) \(([^)]+)\)$/.exec(line.replace(/\u00a0/g, " "));
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    stack[depth] = match[2] as string;
    stack.length = depth + 1;
    if ((match[3] as string).split(", ").includes("GET")) routes.push(stack.join("").replace(/\/\/+/g, "/"));
  }
  return routes;
}

/** Page routes → the URL to visit and who visits (the admin's browser, or an anonymous one). */
const PAGES: Record<string, { url: string; as: "admin" | "anonymous" }> = {
  "/index.php/login": { url: "/index.php/login", as: "anonymous" },
  "/index.php/logout": { url: "/index.php/logout?requesttoken=wrong", as: "admin" },
  "/index.php/settings/personal": { url: "/index.php/settings/personal", as: "admin" },
  "/index.php/settings/admin/users": { url: "/index.php/settings/admin/users", as: "admin" },
  "/index.php/settings/admin/groups": { url: "/index.php/settings/admin/groups", as: "admin" },
  "/index.php/settings/admin/applications": { url: "/index.php/settings/admin/applications", as: "admin" },
  "/index.php/settings/admin/security": { url: "/index.php/settings/admin/security", as: "admin" },
  "/index.php/settings/admin/settings": { url: "/index.php/settings/admin/settings", as: "admin" },
  "/index.php/settings/admin/users/:uid": { url: "/index.php/settings/admin/users/root", as: "admin" },
  "/index.php/apps/oauth2/authorize": { url: authorizeUrl(WEB_CLIENT, { state: "x" }), as: "admin" },
  "/index.php/apps/oauth2/authorization-successful": { url: "/index.php/apps/oauth2/authorization-successful", as: "admin" },
  "/index.php/apps/oauth2/logout": { url: "/index.php/apps/oauth2/logout?requesttoken=wrong", as: "admin" },
  "/index.php/apps/activity/": { url: "/index.php/apps/activity/", as: "admin" },
  "/index.php/apps/activity/:filter": { url: "/index.php/apps/activity/self", as: "admin" },
  // OpenID Connect logout (issue 15): the confirmation page for a logged-in user.
  "/index.php/apps/oauth2/end-session": { url: "/index.php/apps/oauth2/end-session", as: "admin" },
  // Login Flow v2 (issue 13): a link naming no flow gets its "not valid" page.
  "/index.php/login/v2/flow/:loginToken": { url: `/index.php/login/v2/flow/${"A".repeat(128)}`, as: "admin" },
  // The device authorization grant's verification page (RFC 8628 §3.3): the code entry form.
  "/index.php/apps/oauth2/device": { url: "/index.php/apps/oauth2/device", as: "admin" },
};

/** Extra page states of a route: error pages are pages too. */
const MORE_PAGES: Array<{ url: string; as: "admin" | "anonymous" }> = [
  { url: "/index.php/settings/admin/users/nobody", as: "admin" },
  { url: "/index.php/settings/admin/users?q=nobody&page=2", as: "admin" },
  { url: "/index.php/apps/oauth2/authorize?client_id=unknown", as: "admin" },
  { url: authorizeUrl(WEB_CLIENT, { user: "somebody-else" }), as: "admin" },
  { url: "/index.php/apps/oauth2/end-session", as: "anonymous" },
  { url: "/index.php/apps/oauth2/end-session?id_token_hint=not-a-token", as: "admin" },
  // The form_post page (OAuth 2.0 Form Post Response Mode), here carrying prompt=none's consent_required.
  {
    url: authorizeUrl(WEB_CLIENT, { state: "x", scope: "openid", response_mode: "form_post", prompt: "none" }),
    as: "admin",
  },
];

/**
 * Pages only a login that has passed the password alone reaches (the second-factor challenge and
 * the enforced setup): their headers are checked in test/second-factor/login.test.ts.
 */
const HALF_LOGIN_PAGES = new Set(["/index.php/login/challenge", "/index.php/login/setup-second-factor"]);

/** GET routes that are not HTML pages (APIs, redirects, images, JSON documents). */
const NOT_PAGES = new Set([
  "/",
  "/status.php",
  "/index.php/apps/oauth2/api/v1/userinfo",
  // The audit log's JSON-lines export (an attachment, test/audit/admin-pages.test.ts).
  "/index.php/settings/admin/security/audit.jsonl",
  // The settings pages' script file (their copy button).
  "/index.php/settings/js/:file",
  // The form_post page's script file (OAuth 2.0 Form Post Response Mode).
  "/index.php/apps/oauth2/js/form-post.js",
  // The push websocket (nextcloud/notify_push): an upgrade, or 426 for a plain request.
  "/push/ws",
  // Passkeys: @simplewebauthn/browser's bundle and the pages' ceremony script.
  "/index.php/js/:file",
  // The activity page's live updates (push).
  "/index.php/apps/activity/js/:file",
  // Forward authentication for reverse proxies (issue 13): status codes and headers, no page.
  "/index.php/apps/keystream/api/v1/auth-request",
  "/index.php/apps/activity",
  // The administration console's address: a redirect to its first area.
  "/index.php/settings/admin",
  "/index.php/apps/activity/api/v2/activity",
  "/index.php/apps/activity/api/v2/activity/filters",
  "/index.php/apps/activity/api/v2/activity/:filter",
  "/index.php/apps/activity/api/v2/settings",
  "/index.php/apps/activity/img/:file",
  "/index.php/apps/keystream/css/:file",
  "/ocs/v1.php/cloud/user",
  "/ocs/v1.php/cloud/activity",
  "/ocs/v1.php/cloud/capabilities",
  "/ocs/v2.php/cloud/user",
  "/ocs/v2.php/cloud/activity",
  "/ocs/v2.php/cloud/capabilities",
  "/ocs/v2.php/apps/activity/api/v2/activity",
  "/ocs/v2.php/apps/activity/api/v2/activity/filters",
  "/ocs/v2.php/apps/activity/api/v2/activity/:filter",
  "/ocs/v1.php/apps/notifications/api/v2/notifications",
  "/ocs/v1.php/apps/notifications/api/v2/notifications/:id",
  "/ocs/v2.php/apps/notifications/api/v2/notifications",
  "/ocs/v2.php/apps/notifications/api/v2/notifications/:id",
  "/.well-known/oauth-authorization-server",
  "/.well-known/oauth-authorization-server/index.php/apps/oauth2",
  "/.well-known/openid-configuration",
  "/index.php/apps/oauth2/.well-known/openid-configuration",
  "/index.php/apps/oauth2/jwks",
  "/remote.php/dav/avatars/:uid/:file",
  "/index.php/apps/keystream/api/openapi.json",
  "/index.php/apps/keystream/api/v1/auth-request",
  "/health/live",
  "/health/ready",
]);

function assertPageHeaders(response: LightMyRequestResponse, url: string): void {
  assert.match(String(response.headers["content-type"]), /^text\/html/, url);
  const csp = String(response.headers["content-security-policy"]);
  assert.match(csp, /frame-ancestors 'none'/, url);
  assert.match(csp, /default-src 'self'/, url);
  assert.equal(response.headers["x-content-type-options"], "nosniff", url);
  assert.equal(response.headers["x-frame-options"], "DENY", url);
  assert.equal(response.headers["referrer-policy"], "no-referrer", url);
  assert.equal(response.headers["cache-control"], "no-store", url);
}

describe("security headers on every HTML page", () => {
  let t: TestApp;
  let admin: FormClient;
  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "root", password: PASSWORD, isAdmin: true }));
    admin = new FormClient(t.app);
    assert.equal((await admin.login("root", PASSWORD)).statusCode, 303);
  });
  after(() => t.close());

  it("every GET route is classified as a page or not (a new route must be added here)", () => {
    const routes = getRoutes(t.app);
    assert.ok(routes.length > 20, JSON.stringify(routes));
    const unclassified = routes.filter((r) => !(r in PAGES) && !NOT_PAGES.has(r) && !HALF_LOGIN_PAGES.has(r));
    assert.deepEqual(unclassified, []);
    const stale = [...Object.keys(PAGES), ...NOT_PAGES, ...HALF_LOGIN_PAGES].filter((r) => !routes.includes(r));
    assert.deepEqual(stale, [], "classified routes that no longer exist");
  });

  it("each page (and its error states) carries CSP frame-ancestors 'none', nosniff, DENY, no-referrer, no-store", async () => {
    for (const page of [...Object.values(PAGES), ...MORE_PAGES]) {
      const response = page.as === "admin" ? await admin.get(page.url) : await new FormClient(t.app).get(page.url);
      assert.ok(response.statusCode < 500, `${page.url}: ${response.statusCode}`);
      assertPageHeaders(response, page.url);
    }
  });

  it("the non-page GET routes answer something other than HTML", async () => {
    for (const route of NOT_PAGES) {
      const url = route.replace(":filter", "self").replace(":file", "96.png").replace(":uid", "root");
      const response = await admin.get(url, { accept: "application/json" });
      assert.doesNotMatch(String(response.headers["content-type"] ?? ""), /text\/html/, url);
    }
  });

  it("the consent page, whose URL may carry a PKCE challenge and state, sends no referrer", async () => {
    const response = await admin.get(authorizeUrl(WEB_CLIENT, { state: "secret-state" }));
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["referrer-policy"], "no-referrer");
    assert.match(response.body, /<meta name="referrer" content="no-referrer">/);
  });
});

describe("session cookie flags", () => {
  let t: TestApp;
  let proxied: FastifyInstance;
  before(async () => {
    t = await createOAuthTestApp();
    proxied = await createProxiedApp(t);
  });
  after(async () => {
    await proxied.close();
    await t.close();
  });

  const cookieNamed = (response: LightMyRequestResponse, name: string): string => {
    const header = response.headers["set-cookie"];
    const cookies = Array.isArray(header) ? header : [String(header)];
    const cookie = cookies.find((c) => c.startsWith(`${name}=`));
    assert.ok(cookie, JSON.stringify(header));
    return cookie;
  };

  /** The login form's cookie from showing the form, the session cookie from logging in through it. */
  const loginCookies = async (app: FastifyInstance, headers: Record<string, string>): Promise<string[]> => {
    const browser = new FormClient(app);
    const page = await browser.get("/index.php/login", headers);
    const token = /name="requesttoken" value="([^"]+)"/.exec(page.body)?.[1] as string;
    const login = await browser.post("/index.php/login", { user: "alice", password: PASSWORD, requesttoken: token }, headers);
    assert.equal(login.statusCode, 303);
    return [cookieNamed(page, "ks_login_form"), cookieNamed(login, "ks_session")];
  };

  it("over http: HttpOnly and SameSite=Lax, not Secure (and a forwarded proto from an untrusted peer is ignored)", async () => {
    for (const headers of [{}, { "x-forwarded-proto": "https" }] as Array<Record<string, string>>) {
      for (const cookie of await loginCookies(t.app, headers)) {
        assert.match(cookie, /; HttpOnly/);
        assert.match(cookie, /; SameSite=Lax/);
        assert.doesNotMatch(cookie, /; Secure/);
      }
    }
  });

  it("over https through a trusted proxy: Secure too, on the login form's cookie and the session's", async () => {
    for (const cookie of await loginCookies(proxied, { "x-forwarded-proto": "https" })) {
      assert.match(cookie, /; Secure/);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
    }
  });
});
