import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { decorateGuardPrincipal } from "../../src/http/plugins/route-guards.js";
import { createServices } from "../../src/services.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The state-changing routes no guarded group covers, each authenticated otherwise, and why. A new
 * state-changing route belongs in a guarded group (plugins/route-guards.ts); this list grows only
 * for a route whose caller cannot have a session or CSRF token to show.
 */
const AUTHENTICATED_OTHERWISE: Record<string, string> = {
  "POST /index.php/login":
    "the login form: its handler checks the form's signed CSRF cookie and token (http/login-form-token.ts) before the password",
  "POST /index.php/login/passkey/options":
    "a passkey sign-in's options: only with the login form's signed CSRF cookie and token (checked by the handler); writes a challenge bound to that browser",
  "POST /index.php/login/passkey":
    "a passkey sign-in: the login form's signed CSRF cookie and token checked by the handler, then the assertion, throttled per address",
  "POST /index.php/logout": "ends the session only with its requesttoken (checked by the handler); no session, nothing to end",
  "POST /index.php/login/v2": "Login Flow v2 start: a client without credentials, throttled per address",
  "POST /index.php/login/v2/poll": "Login Flow v2 poll: the poll token is the credential, throttled per address",
  "POST /index.php/apps/oauth2/api/v1/token": "OAuth client endpoint: client credentials (RFC 6749 §2.3)",
  "POST /index.php/apps/oauth2/api/v1/revoke": "OAuth client endpoint: client credentials (RFC 7009 §2.1)",
  "POST /index.php/apps/oauth2/api/v1/introspect": "OAuth client endpoint: client credentials (RFC 7662 §2.1)",
  "POST /index.php/apps/oauth2/api/v1/device_authorization": "OAuth client endpoint: client credentials (RFC 8628 §3.1)",
  "POST /index.php/apps/oauth2/api/v1/register":
    "dynamic client registration (RFC 7591 §3): open to anonymous clients by design, throttled per address, 404 unless oidc.dynamic_registration",
  "POST /index.php/apps/oauth2/api/v1/userinfo": "UserInfo by POST (OIDC Core §5.3.1): reads only, changes nothing",
  "POST /index.php/apps/oauth2/end-session":
    "RP-Initiated Logout 1.0 §2: ends a session only for a verified id_token_hint naming its user, else asks (the confirm form is guarded)",
};

describe("route guards", () => {
  let storage: TestStorage;
  let app: FastifyInstance;
  const routes: RouteOptions[] = [];

  before(async () => {
    storage = await createTestStorage();
    const services = createServices({
      storage: storage.storage,
      dataDir: storage.dataDir,
      clock: new ManualClock(),
      settings: new HostSettings(storage.dataDir),
      log: pino({ level: "silent" }),
    });
    app = await buildApp({ services, sleep: async () => {}, onRoute: (route) => routes.push(route) });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await storage.cleanup();
  });

  /** Every state-changing route as "METHOD /path", with the guard of its group (read once all groups have marked theirs). */
  const stateChanging = () =>
    routes.flatMap((route) =>
      (Array.isArray(route.method) ? route.method : [route.method])
        .filter((method) => STATE_CHANGING.has(method))
        .map((method) => ({ key: `${method} ${route.url}`, guard: route.config?.guard })),
    );

  it("every state-changing route is guarded by its group, not by its handler", () => {
    const found = stateChanging();
    assert.ok(found.length > 20, `only ${found.length} state-changing routes seen`);
    const unguarded = found.filter(({ key, guard }) => !guard?.provesOrigin && AUTHENTICATED_OTHERWISE[key] === undefined);
    assert.deepEqual(
      unguarded.map(({ key, guard }) => `${key} (${guard ? `group "${guard.name}" proves no origin` : "in no guarded group"})`),
      [],
    );
  });

  it("allows only routes that exist and are in no guarded group", () => {
    const found = new Map(stateChanging().map(({ key, guard }) => [key, guard]));
    for (const key of Object.keys(AUTHENTICATED_OTHERWISE)) {
      assert.ok(found.has(key), `${key} is allowed but not registered`);
      assert.equal(found.get(key), undefined, `${key} is allowed but its group guards it already`);
    }
  });

  it("puts the settings forms, the consent form and the JSON writes in groups that check the session or the API's CSRF proof", () => {
    const guards = new Map(stateChanging().map(({ key, guard }) => [key, guard?.name]));
    assert.equal(guards.get("POST /index.php/settings/personal/app-passwords"), "confirmed session form");
    assert.equal(guards.get("POST /index.php/settings/personal/app-passwords/:id/revoke"), "session form");
    assert.equal(guards.get("POST /index.php/settings/users"), "admin form");
    assert.equal(guards.get("POST /index.php/apps/oauth2/clients/:id/delete"), "admin form");
    assert.equal(guards.get("POST /index.php/settings/admin/groups/create"), "admin form");
    assert.equal(guards.get("POST /index.php/settings/admin/groups/remove-member"), "admin form");
    assert.equal(guards.get("POST /index.php/apps/oauth2/authorize"), "session form");
    assert.equal(guards.get("POST /index.php/apps/oauth2/end-session/confirm"), "session form");
    assert.equal(guards.get("POST /index.php/login/v2/flow/:loginToken/grant"), "login flow grant");
    assert.equal(guards.get("POST /index.php/login/v2/flow/:loginToken/cancel"), "login flow form");
    assert.equal(guards.get("PUT /index.php/apps/activity/api/v2/settings"), "api write");
    assert.equal(guards.get("POST /index.php/apps/activity/api/v2/events"), "admin api write");
    assert.equal(guards.get("DELETE /ocs/v2.php/core/apppassword"), "app password");
  });

  it("every route that accepts API credentials declares the scope a token needs; browser pages and forms declare none", () => {
    const BROWSER_GUARDS = new Set([
      "session page",
      "admin page",
      "session form",
      "confirmed session form",
      "admin form",
      "login flow form",
      "login flow grant",
      "session logout link",
      "confirmed admin form",
      "second factor challenge page",
      "second factor challenge form",
      "second factor setup page",
      "second factor setup form",
    ]);
    const guardedRoutes = routes.flatMap((route) => {
      const guard = route.config?.guard;
      return guard ? [{ key: `${String(route.method)} ${route.url}`, guard }] : [];
    });
    const api = guardedRoutes.filter(({ guard }) => !BROWSER_GUARDS.has(guard.name));
    assert.ok(api.length >= 8, `only ${api.length} API routes seen`);
    assert.deepEqual(
      api.filter(({ guard }) => guard.scope === null).map(({ key }) => key),
      [],
    );
    assert.deepEqual(
      guardedRoutes.filter(({ guard }) => BROWSER_GUARDS.has(guard.name) && guard.scope !== null).map(({ key }) => key),
      [],
    );
    const scopeOf = new Map(guardedRoutes.map(({ key, guard }) => [key, guard.scope]));
    assert.equal(scopeOf.get("GET /ocs/v2.php/apps/activity/api/v2/activity"), "activity:read");
    assert.equal(scopeOf.get("PUT /index.php/apps/activity/api/v2/settings"), "activity:write");
    assert.equal(scopeOf.get("GET /ocs/v2.php/cloud/user"), "account");
  });

  it("every guarded route identifies its caller before reading the body: nobody's body that would fail to parse gets the authentication answer", async () => {
    const guardedRoutes = stateChanging().filter(({ guard }) => guard !== undefined);
    assert.ok(guardedRoutes.length > 20, `only ${guardedRoutes.length} guarded state-changing routes seen`);
    const bodies = [
      { type: "application/json", payload: "{not json" },
      { type: "multipart/form-data; boundary=zz", payload: "garbage" },
      { type: "multipart/form-data", payload: "--zz\r\nno boundary parameter" },
      { type: "application/x-www-form-urlencoded", payload: "x".repeat(300 * 1024) },
      { type: "text/plain", payload: "no parser for this type" },
    ];
    const answers: string[] = [];
    for (const { key } of guardedRoutes) {
      const [method, path] = key.split(" ") as [string, string];
      // The consent form always carries its query. Without one, a POST to the authorization endpoint
      // is an authorization request (OIDC Core §3.1.2.1), sent by browsers nobody is logged in on:
      // its body is read (test/oidc/authorize-by-post.test.ts).
      const query = key === "POST /index.php/apps/oauth2/authorize" ? "?response_type=code" : "";
      const url = `${path.replace(/:[a-zA-Z]+/g, "x")}${query}`;
      for (const body of bodies) {
        const response = await app.inject({
          method: method as "POST",
          url,
          payload: body.payload,
          headers: { "content-type": body.type },
        });
        // A browser form sends nobody to the login page; an API refuses with a challenge.
        if (response.statusCode === 303) assert.match(String(response.headers.location), /^\/index\.php\/login\?/, key);
        else answers.push(`${key} ${body.type}: ${response.statusCode}`);
      }
    }
    assert.deepEqual(
      answers.filter((answer) => !/: 40[13]$/.test(answer)),
      [],
      "every refusal is the login redirect or a 401 (403 where nobody gets 403), never a parser's 400, 413 or 415",
    );
  });

  it("refuses to hand a handler outside any guarded group a principal (a 500, never a request run for nobody)", async () => {
    const bare = Fastify();
    decorateGuardPrincipal(bare);
    bare.get("/unguarded", async (request) => ({ uid: request.principal.user.uid }));
    const response = await bare.inject({ method: "GET", url: "/unguarded" });
    assert.equal(response.statusCode, 500);
    await bare.close();
  });
});
