import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { AUTHORIZE, basic, createOAuthTestApp, loggedIn, tokenRequest, userinfo } from "./support.js";

const REGISTER = "/index.php/apps/oauth2/api/v1/register";
const ISSUER_DISCOVERY = "/index.php/apps/oauth2/.well-known/openid-configuration";
const ROOT_DISCOVERY = "/.well-known/openid-configuration";

/** What the ownCloud desktop client 2.11 sends (docs/upstream/desktop-clients.md, ownCloud client §6). */
const DESKTOP_METADATA = {
  client_name: "ownCloud 2.11.0",
  redirect_uris: ["http://127.0.0.1"],
  application_type: "native",
  token_endpoint_auth_method: "client_secret_basic",
};

let sent = 0;

/** POSTs metadata; from a new address each time unless `ip` is given (the throttle counts every registration). */
function register(t: TestApp, body: unknown, options: { contentType?: string; ip?: string } = {}) {
  sent++;
  return t.app.inject({
    method: "POST",
    url: REGISTER,
    remoteAddress: options.ip ?? `198.18.${sent >> 8}.${sent & 255}`,
    payload: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": options.contentType ?? "application/json" },
  });
}

interface Registered {
  client_id: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  application_type: string;
  scope: string;
}

async function registered(t: TestApp, body: unknown = DESKTOP_METADATA, ip?: string): Promise<Registered> {
  const response = await register(t, body, ip === undefined ? {} : { ip });
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(clientId: string, redirectUri: string, params: Record<string, string> = {}): string {
  return `${AUTHORIZE}?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, ...params })}`;
}

function assertRefused(response: LightMyRequestResponse, error: string): void {
  assert.equal(response.statusCode, 400, response.body);
  assert.equal(response.json().error, error, response.body);
  assert.equal(typeof response.json().error_description, "string");
  assert.equal(response.headers["cache-control"], "no-store");
}

/** Logs alice in, shows the consent page (checked for the self-registered line), allows; the redirect's URL. */
async function consentAsAlice(t: TestApp, url: string): Promise<URL> {
  const browser = await loggedIn(t);
  const page = await browser.get(url);
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /id="oauth-consent"/);
  assert.match(page.body, /id="oauth-self-registered"[^>]*>This application registered itself with this server/);
  const answer = await browser.post(url, { requesttoken: requestTokenOf(page.body) });
  assert.equal(answer.statusCode, 303, answer.body);
  return new URL(String(answer.headers.location));
}

describe("dynamic client registration (RFC 7591), host setting oidc.dynamic_registration", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  const loopback = () => t.services.settings.set("oidc.dynamic_registration", "loopback");
  const off = () => t.services.settings.set("oidc.dynamic_registration", "off");

  describe("off (the default)", () => {
    it("the registration endpoint is 404 and no discovery document names it", async () => {
      assert.equal(t.services.settings.get("oidc.dynamic_registration"), "off");
      assert.equal((await register(t, DESKTOP_METADATA)).statusCode, 404);
      t.services.settings.set("oidc.root_discovery", true);
      for (const path of [ISSUER_DISCOVERY, ROOT_DISCOVERY, "/.well-known/oauth-authorization-server"]) {
        const document = (await t.app.inject({ method: "GET", url: path })).json();
        assert.equal(document.registration_endpoint, undefined, path);
      }
      t.services.settings.delete("oidc.root_discovery");
      const clients = await t.services.oauth.clients.list();
      assert.equal(clients.filter((client) => client.registeredAt !== undefined).length, 0);
    });
  });

  describe("loopback", () => {
    before(loopback);
    after(off);

    it("discovery names the registration endpoint, the root document (oidc.root_discovery) being the same document", async () => {
      t.services.settings.set("oidc.root_discovery", true);
      try {
        const issuerDocument = (await t.app.inject({ method: "GET", url: ISSUER_DISCOVERY })).json();
        assert.equal(issuerDocument.registration_endpoint, issuerDocument.token_endpoint.replace(/\/token$/, "/register"));
        const rootDocument = (await t.app.inject({ method: "GET", url: ROOT_DISCOVERY })).json();
        assert.deepEqual(rootDocument, issuerDocument);
      } finally {
        t.services.settings.delete("oidc.root_discovery");
      }
    });

    it("registers the ownCloud desktop client's metadata: 201 with id, secret that never expires, and the registered metadata", async () => {
      const now = t.clock.nowSeconds();
      const response = await register(t, DESKTOP_METADATA);
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.headers["cache-control"], "no-store");
      const body = response.json() as Registered;
      assert.match(body.client_id, /^[A-Za-z0-9]{64}$/);
      assert.match(body.client_secret ?? "", /^[A-Za-z0-9]{64}$/);
      assert.deepEqual(
        { ...body, client_id: "", client_secret: "" },
        {
          client_id: "",
          client_secret: "",
          client_secret_expires_at: 0,
          client_id_issued_at: now,
          client_name: "ownCloud 2.11.0",
          redirect_uris: ["http://127.0.0.1"],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
          application_type: "native",
          scope: "account files activity:read activity:write openid profile email groups offline_access",
        },
      );
      const client = await t.services.oauth.findClient(body.client_id);
      assert.ok(client);
      assert.equal(client.registeredAt, now);
      assert.equal(client.trusted, false);
      assert.equal(client.redirectUri, "http://127.0.0.1:*/");
      assert.equal(client.name, `ownCloud 2.11.0 (${body.client_id.slice(0, 8)})`, "stored with the start of its id");
    });

    it("answers the requested scopes this server grants (oidc-agent checks openid and offline_access are there)", async () => {
      const body = await registered(t, { ...DESKTOP_METADATA, scope: "offline_access openid unknown" });
      assert.equal(body.scope, "openid offline_access");
    });

    it("a public client (token_endpoint_auth_method none) gets no secret", async () => {
      const body = await registered(t, { ...DESKTOP_METADATA, token_endpoint_auth_method: "none" });
      assert.equal(body.client_secret, undefined);
      assert.equal(body.client_secret_expires_at, undefined);
      assert.equal(body.token_endpoint_auth_method, "none");
    });

    it("refuses redirect URIs that are not loopback http URIs, or that differ in more than the port: invalid_redirect_uri", async () => {
      const before = (await t.services.oauth.clients.list()).length;
      for (const redirect_uris of [
        ["https://app.example.com/cb"],
        ["http://app.example.com/cb"],
        ["https://127.0.0.1/cb"],
        ["http://127.0.0.2/cb"],
        ["com.example.app:/cb"],
        ["http://127.0.0.1/cb#x"],
        ["http://user@127.0.0.1/cb"],
        ["http://127.0.0.1:8080/a", "http://127.0.0.1:9090/b"],
        ["http://127.0.0.1/cb", "http://localhost/cb"],
        [],
      ]) {
        assertRefused(await register(t, { ...DESKTOP_METADATA, redirect_uris }), "invalid_redirect_uri");
      }
      assertRefused(await register(t, { application_type: "native" }), "invalid_redirect_uri");
      assertRefused(await register(t, { ...DESKTOP_METADATA, redirect_uris: "http://127.0.0.1" }), "invalid_redirect_uri");
      assert.equal((await t.services.oauth.clients.list()).length, before, "nothing registered");
    });

    it("accepts [::1] and localhost, and several URIs differing only in their port (stored once with any port)", async () => {
      const v6 = await registered(t, { ...DESKTOP_METADATA, redirect_uris: ["http://[::1]:4000/cb"] });
      assert.equal((await t.services.oauth.findClient(v6.client_id))?.redirectUri, "http://[::1]:*/cb");
      const named = await registered(t, {
        ...DESKTOP_METADATA,
        redirect_uris: ["http://localhost:8080/redirect", "http://localhost:4242/redirect"],
      });
      assert.equal((await t.services.oauth.findClient(named.client_id))?.redirectUri, "http://localhost:*/redirect");
      assert.deepEqual(named.redirect_uris, ["http://localhost:8080/redirect", "http://localhost:4242/redirect"]);
    });

    it("a client calling itself web (or naming no type) with only loopback redirect URIs is served as native, its type answered as sent", async () => {
      const { application_type: _dropped, ...withoutType } = DESKTOP_METADATA;
      const untyped = await register(t, withoutType);
      assert.equal(untyped.statusCode, 201, untyped.body);
      assert.equal(untyped.json().application_type, "web");
      const web = await register(t, { ...DESKTOP_METADATA, application_type: "web" });
      assert.equal(web.statusCode, 201, web.body);
      assert.equal(web.json().application_type, "web");
      assert.equal((await t.services.oauth.findClient(web.json().client_id))?.redirectUri, "http://127.0.0.1:*/");
      assertRefused(await register(t, { ...DESKTOP_METADATA, application_type: "service" }), "invalid_client_metadata");
      assertRefused(
        await register(t, { ...DESKTOP_METADATA, application_type: "web", redirect_uris: ["https://app.example.com/cb"] }),
        "invalid_redirect_uri",
      );
    });

    it("refuses malformed metadata with invalid_client_metadata", async () => {
      assertRefused(await register(t, "{not json"), "invalid_client_metadata");
      assertRefused(await register(t, "[]"), "invalid_client_metadata");
      assertRefused(await register(t, "null"), "invalid_client_metadata");
      assertRefused(
        await register(t, JSON.stringify(DESKTOP_METADATA), { contentType: "application/x-www-form-urlencoded" }),
        "invalid_client_metadata",
      );
      for (const change of [
        { token_endpoint_auth_method: "private_key_jwt" },
        { token_endpoint_auth_method: 7 },
        { grant_types: ["implicit"] },
        { grant_types: ["refresh_token"] },
        { grant_types: "authorization_code" },
        { response_types: ["token"] },
        { response_types: [] },
        { client_name: 42 },
        { scope: ["openid"] },
        { scope: "unknown" },
      ]) {
        assertRefused(await register(t, { ...DESKTOP_METADATA, ...change }), "invalid_client_metadata");
      }
    });

    it("accepts any port at authorization for a loopback registration, and nothing else", async () => {
      const client = await registered(t);
      const browser = await loggedIn(t);
      for (const redirect of ["http://127.0.0.1:51234", "http://127.0.0.1:80/", "http://127.0.0.1"]) {
        const page = await browser.get(
          authorizeUrl(client.client_id, redirect, { code_challenge: pkce().challenge, code_challenge_method: "S256" }),
        );
        assert.equal(page.statusCode, 200, redirect);
        assert.match(page.body, /id="oauth-consent"/, redirect);
      }
      for (const redirect of [
        "http://localhost:51234",
        "http://127.0.0.1:51234/other",
        "https://127.0.0.1:51234",
        "http://evil.example:51234",
      ]) {
        const page = await browser.get(authorizeUrl(client.client_id, redirect));
        assert.equal(page.statusCode, 400, redirect);
        assert.equal(page.headers.location, undefined, redirect);
      }
    });

    it("a registered confidential client does the code flow with PKCE and its secret (Basic and body, as the desktop client), then refreshes", async () => {
      const client = await registered(t);
      const { verifier, challenge } = pkce();
      const redirect = "http://127.0.0.1:40123";
      const back = await consentAsAlice(
        t,
        authorizeUrl(client.client_id, redirect, {
          scope: "openid offline_access email profile",
          prompt: "select_account consent",
          code_challenge: challenge,
          code_challenge_method: "S256",
          state: "abc=",
        }),
      );
      assert.equal(back.origin, "http://127.0.0.1:40123");
      assert.equal(back.searchParams.get("state"), "abc=");
      const code = back.searchParams.get("code") ?? "";
      const secret = client.client_secret ?? "";
      const tokens = await tokenRequest(
        t,
        {
          client_id: client.client_id,
          client_secret: secret,
          grant_type: "authorization_code",
          code,
          redirect_uri: redirect,
          code_verifier: verifier,
        },
        { authorization: basic(client.client_id, secret) },
      );
      assert.equal(tokens.statusCode, 200, tokens.body);
      const body = tokens.json();
      assert.equal(body.user_id, "alice");
      assert.ok(body.id_token);
      // The desktop client syncs files with these tokens: a registered client has account access.
      assert.match(body.scope, /\baccount\b/);
      assert.equal((await userinfo(t, body.access_token)).json().sub, "alice");
      const refreshed = await tokenRequest(
        t,
        { grant_type: "refresh_token", refresh_token: body.refresh_token, client_id: client.client_id, client_secret: secret },
        { authorization: basic(client.client_id, secret) },
      );
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      const wrong = await tokenRequest(
        t,
        { grant_type: "refresh_token", refresh_token: refreshed.json().refresh_token },
        {
          authorization: basic(client.client_id, "x".repeat(64)),
        },
      );
      assert.equal(wrong.statusCode, 401);
    });

    it("a registered client with client_secret_post does the code flow with the secret in the body", async () => {
      const client = await registered(t, { ...DESKTOP_METADATA, token_endpoint_auth_method: "client_secret_post" });
      const redirect = "http://127.0.0.1:40124";
      const back = await consentAsAlice(t, authorizeUrl(client.client_id, redirect, { scope: "openid" }));
      const tokens = await tokenRequest(t, {
        grant_type: "authorization_code",
        code: back.searchParams.get("code") ?? "",
        redirect_uri: redirect,
        client_id: client.client_id,
        client_secret: client.client_secret ?? "",
      });
      assert.equal(tokens.statusCode, 200, tokens.body);
    });

    it("a registered public client (none) does the code flow with PKCE and refreshes with its client_id alone", async () => {
      const client = await registered(t, {
        ...DESKTOP_METADATA,
        redirect_uris: ["http://[::1]/cb"],
        token_endpoint_auth_method: "none",
      });
      const { verifier, challenge } = pkce();
      const redirect = "http://[::1]:39999/cb";
      const back = await consentAsAlice(
        t,
        authorizeUrl(client.client_id, redirect, { scope: "openid", code_challenge: challenge, code_challenge_method: "S256" }),
      );
      const tokens = await tokenRequest(t, {
        grant_type: "authorization_code",
        code: back.searchParams.get("code") ?? "",
        redirect_uri: redirect,
        client_id: client.client_id,
        code_verifier: verifier,
      });
      assert.equal(tokens.statusCode, 200, tokens.body);
      const refreshed = await tokenRequest(t, {
        grant_type: "refresh_token",
        refresh_token: tokens.json().refresh_token,
        client_id: client.client_id,
      });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
    });

    it("a registered client is never trusted: the consent page is shown even after an administrator sets trusted", async () => {
      const client = await registered(t);
      const stored = await t.services.oauth.findClient(client.client_id);
      assert.ok(stored);
      const modified = await t.services.oauth.clients.modify(stored.name, "trusted", "true", true);
      assert.ok(modified.ok);
      const browser = await loggedIn(t);
      const page = await browser.get(authorizeUrl(client.client_id, "http://127.0.0.1:5000", { scope: "openid" }));
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /id="oauth-self-registered"/);
    });

    it("an administrator's client's consent page has no self-registered line", async () => {
      const browser = await loggedIn(t);
      const page = await browser.get(
        `${AUTHORIZE}?${new URLSearchParams({ response_type: "code", client_id: "webappclientid0123456789abcdefghijklmnopqrstuv", redirect_uri: "https://app.example.com/callback" })}`,
      );
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /oauth-self-registered/);
    });

    it("oauth2:list-clients marks registered clients (JSON and text), with when they registered and were last used", async () => {
      const client = await registered(t);
      const json = await runOccInProcess(["oauth2:list-clients", "--output=json"], t.testStorage);
      assert.equal(json.code, 0, json.err);
      const listed = Object.values(JSON.parse(json.out) as Record<string, Record<string, unknown>>);
      const entry = listed.find((item) => item["client-id"] === client.client_id);
      assert.ok(entry);
      assert.equal(entry["self-registered"], true);
      assert.equal(entry["registered-at"], new Date(client.client_id_issued_at * 1000).toISOString());
      assert.equal(entry["last-used-at"], "never");
      const admins = listed.find((item) => item.name === "Web App");
      assert.equal(admins?.["self-registered"], undefined);
      const text = await runOccInProcess(["oauth2:list-clients"], t.testStorage);
      const stored = `${client.client_name} (${client.client_id.slice(0, 8)})`;
      assert.match(text.out, new RegExp(`${stored.replace(/[()]/g, "\\$&")}[\\s\\S]*self-registered: true`));
    });

    it("the admin page lists a registered client as such", async () => {
      accepted(await t.services.users.create({ uid: "root", password: "root password!", isAdmin: true }));
      const admin = await loggedIn(t, "root", "root password!");
      const page = await admin.get("/index.php/settings/admin/applications");
      const client = await registered(t);
      const after = await admin.get("/index.php/settings/admin/applications");
      assert.equal(after.statusCode, 200);
      const stored = `${client.client_name} (${client.client_id.slice(0, 8)})`;
      const row = new RegExp(`<tr><td data-label="Name">${stored.replace(/[()]/g, "\\$&")}</td>[\\s\\S]*?</tr>`).exec(after.body);
      assert.ok(row, "the client's row");
      assert.match(row[0], /Registered itself/);
      assert.doesNotMatch(
        page.body.match(/<tr><td data-label="Name">Web App<\/td>[\s\S]*?<\/tr>/)?.[0] ?? "",
        /Registered itself/,
      );
    });

    it("occ config:system:set accepts off and loopback only", async () => {
      const bad = await runOccInProcess(["config:system:set", "oidc.dynamic_registration", "--value=open"], t.testStorage);
      assert.equal(bad.code, 1);
      assert.match(bad.err, /oidc\.dynamic_registration/);
      const good = await runOccInProcess(["config:system:set", "oidc.dynamic_registration", "--value=loopback"], t.testStorage);
      assert.equal(good.code, 0, good.err);
    });
  });
});

describe("registration throttling: every registration counts in its address's bucket", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    t.services.settings.set("oidc.dynamic_registration", "loopback");
  });
  after(() => t.close());

  it("after 20 registrations from one address within the hour the next is 429 with Retry-After, for an hour; another address still registers", async () => {
    for (let i = 0; i < 20; i++) {
      const body = i % 2 === 0 ? DESKTOP_METADATA : { redirect_uris: ["https://bad.example"] };
      const response = await register(t, body, { ip: "198.51.100.7" });
      assert.ok(response.statusCode === 201 || response.statusCode === 400, `${i}: ${response.statusCode}`);
    }
    assert.ok(t.sleeps.length > 0, "later registrations were delayed");
    const refused = await register(t, DESKTOP_METADATA, { ip: "198.51.100.7" });
    assert.equal(refused.statusCode, 429, refused.body);
    assert.ok(Number(refused.headers["retry-after"]) > 0);
    assert.equal((await register(t, DESKTOP_METADATA, { ip: "198.51.100.8" })).statusCode, 201);
    t.clock.advance(3601);
    assert.equal((await register(t, DESKTOP_METADATA, { ip: "198.51.100.7" })).statusCode, 201);
  });
});

describe("cleanup: registered clients unused for 90 days are deleted with their grants", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
    t.services.settings.set("oidc.dynamic_registration", "loopback");
  });
  after(() => t.close());

  const DAY = 86_400;
  const exists = async (clientId: string) => (await t.services.oauth.findClient(clientId)) !== undefined;

  it("keeps a client used within 90 days, deletes it (and its grants) 90 days after its last use, and a never-used one 90 days after registering", async () => {
    const used = await registered(t);
    const unused = await registered(t);
    const redirect = "http://127.0.0.1:41000";
    const back = await consentAsAlice(t, authorizeUrl(used.client_id, redirect, { scope: "openid offline_access" }));
    const tokens = await tokenRequest(
      t,
      { grant_type: "authorization_code", code: back.searchParams.get("code") ?? "", redirect_uri: redirect },
      { authorization: basic(used.client_id, used.client_secret ?? "") },
    );
    assert.equal(tokens.statusCode, 200, tokens.body);
    const stored = await t.services.oauth.findClient(used.client_id);
    assert.equal(stored?.lastUsedAt, t.clock.nowSeconds());

    t.clock.advance(60 * DAY);
    const refreshed = await tokenRequest(
      t,
      { grant_type: "refresh_token", refresh_token: tokens.json().refresh_token },
      { authorization: basic(used.client_id, used.client_secret ?? "") },
    );
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.equal((await t.services.oauth.findClient(used.client_id))?.lastUsedAt, t.clock.nowSeconds());

    t.clock.advance(31 * DAY);
    await t.services.oauth.cleanup();
    assert.equal(await exists(unused.client_id), false, "never used, registered 91 days ago");
    assert.equal(await exists(used.client_id), true, "used 31 days ago");
    assert.equal(await exists("webappclientid0123456789abcdefghijklmnopqrstuv"), true, "an administrator's client stays");

    t.clock.advance(58 * DAY);
    await t.services.oauth.cleanup();
    assert.equal(await exists(used.client_id), true, "used 89 days ago");
    t.clock.advance(1 * DAY);
    await t.services.oauth.cleanup();
    assert.equal(await exists(used.client_id), false, "unused for 90 days");
    const grants = await t.testStorage.storage.db.selectFrom("oauth2_grants").select("id").execute();
    assert.equal(grants.length, 0, "its grants went with it");
    assert.equal(await exists("webappclientid0123456789abcdefghijklmnopqrstuv"), true);
  });
});
