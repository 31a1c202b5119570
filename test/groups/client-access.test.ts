import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ManualClock } from "../../src/clock.js";
import { openStorage, type Storage } from "../../src/storage/driver/connect.js";
import {
  addClient,
  authorizeUrl,
  consent,
  createOAuthTestApp,
  exchangeCode,
  loggedIn,
  PASSWORD,
  refresh,
  type TestClient,
  userinfo,
  WEB_CLIENT,
} from "../oauth/support.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { type FormClient, requestTokenOf } from "../support/browser-form.js";
import { formPostOf } from "../support/form-post.js";
import { accepted, assertRefused } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

const DESKTOP: TestClient = {
  name: "Desktop Sync",
  clientId: "desktopsyncclientid0123456789abcdefghijklmn",
  secret: "desktopsyncsecret0123456789abcdefghijklmnopq",
  redirectUri: "http://localhost:*",
};

async function grantsOf(t: TestApp, uid: string): Promise<number> {
  const row = await t.testStorage.storage.db
    .selectFrom("oauth2_grants")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("uid", "=", uid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The error parameters a refusal carries to the redirect URI, from the query or (implicit) the fragment. */
function redirected(location: string): { base: string; params: URLSearchParams } {
  const url = new URL(location);
  const params = url.hash ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
  return { base: `${url.origin}${url.pathname}`, params };
}

describe(`per-client access: an application's allowed groups (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let alice: FormClient;
  let bob: FormClient;

  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, { ...DESKTOP, accountAccess: true });
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD }));
    accepted(await t.services.groups.create("editors"));
    accepted(await t.services.groups.addMember("editors", "bob"));
    for (const name of [WEB_CLIENT.name, DESKTOP.name]) {
      const result = await t.services.oauth.clients.modify(name, "allowed-groups", "editors");
      assert.ok(result.ok, result.ok ? "" : result.message);
    }
    alice = await loggedIn(t, "alice");
    bob = await loggedIn(t, "bob");
  });
  after(() => t.close());

  it("a user outside the allowed groups is refused at authorize: access_denied with state at the redirect URI, no code, no grant", async () => {
    const response = await alice.get(authorizeUrl(WEB_CLIENT, { state: "s-code" }));
    assert.equal(response.statusCode, 303, response.body);
    const { base, params } = redirected(String(response.headers.location));
    assert.equal(base, WEB_CLIENT.redirectUri);
    assert.equal(params.get("error"), "access_denied");
    assert.equal(params.get("state"), "s-code");
    assert.equal(params.get("code"), null);
    assert.equal(await grantsOf(t, "alice"), 0);
  });

  it("the implicit flow's refusal goes in the fragment (RFC 6749 §4.2.2.1), without a token", async () => {
    const response = await alice.get(authorizeUrl(WEB_CLIENT, { response_type: "token", state: "s-implicit" }));
    assert.equal(response.statusCode, 303);
    const location = String(response.headers.location);
    assert.ok(new URL(location).hash, location);
    const { params } = redirected(location);
    assert.equal(params.get("error"), "access_denied");
    assert.equal(params.get("state"), "s-implicit");
    assert.equal(params.get("access_token"), null);
    assert.equal(await grantsOf(t, "alice"), 0);
  });

  it("an OpenID Connect request is refused the same way, also with response_mode=form_post", async () => {
    const openid = { scope: "openid profile", nonce: "n-1", state: "s-oidc" };
    const response = await alice.get(authorizeUrl(WEB_CLIENT, openid));
    assert.equal(response.statusCode, 303);
    const { params } = redirected(String(response.headers.location));
    assert.deepEqual([params.get("error"), params.get("state")], ["access_denied", "s-oidc"]);
    const posted = await alice.get(authorizeUrl(WEB_CLIENT, { ...openid, response_mode: "form_post" }));
    assert.equal(posted.statusCode, 200);
    const form = formPostOf(posted.body);
    assert.equal(form.action, WEB_CLIENT.redirectUri);
    assert.deepEqual([form.params.get("error"), form.params.get("state")], ["access_denied", "s-oidc"]);
    assert.equal(await grantsOf(t, "alice"), 0);
  });

  it("an ownCloud client (account access) gets a page saying the application is not available, 403, no grant", async () => {
    const response = await alice.get(authorizeUrl(DESKTOP, { redirect_uri: "http://localhost:4321" }));
    assert.equal(response.statusCode, 403);
    assert.match(response.body, /data-reason="not_available"/);
    assert.match(response.body, /The application Desktop Sync is not available to you/);
    assert.equal(await grantsOf(t, "alice"), 0);
  });

  it("a consent form posted by a user outside the allowed groups writes no grant either", async () => {
    const url = authorizeUrl(WEB_CLIENT, { state: "s-post" });
    const page = await bob.get(url);
    assert.equal(page.statusCode, 200, page.body);
    const token = requestTokenOf(page.body);
    accepted(await t.services.groups.removeMember("editors", "bob"));
    try {
      const response = await bob.post(url, { requesttoken: token });
      assert.equal(response.statusCode, 303);
      assert.equal(redirected(String(response.headers.location)).params.get("error"), "access_denied");
      assert.equal(await grantsOf(t, "bob"), 0);
    } finally {
      accepted(await t.services.groups.addMember("editors", "bob"));
    }
  });

  it("a member of an allowed group is admitted: consent, code, tokens", async () => {
    const location = await consent(bob, authorizeUrl(WEB_CLIENT));
    const code = new URL(location).searchParams.get("code");
    assert.ok(code, location);
    const tokens = await exchangeCode(t, code);
    assert.equal(tokens.statusCode, 200, tokens.body);
    assert.equal((await userinfo(t, tokens.json().access_token)).statusCode, 200);
  });

  it("the device verification page refuses a user outside the allowed groups and the device gets access_denied", async () => {
    const started = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/device_authorization",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        client_id: WEB_CLIENT.clientId,
        client_secret: WEB_CLIENT.secret,
        scope: "profile",
      }).toString(),
    });
    assert.equal(started.statusCode, 200, started.body);
    const { user_code: userCode, device_code: deviceCode } = started.json();
    const form = await alice.get("/index.php/apps/oauth2/device");
    const refused = await alice.post("/index.php/apps/oauth2/device", {
      requesttoken: requestTokenOf(form.body),
      user_code: userCode,
    });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.match(refused.body, /This application is not available to you/);
    const poll = await t.app.inject({
      method: "POST",
      url: "/index.php/apps/oauth2/api/v1/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: deviceCode,
        client_id: WEB_CLIENT.clientId,
        client_secret: WEB_CLIENT.secret,
      }).toString(),
    });
    assert.equal(poll.json().error, "access_denied");
  });
});

describe(`per-client access: leaving the last allowed group ends the grants on every node (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let secondStorage: Storage;
  let second: Awaited<ReturnType<typeof createAppOn>>;

  before(async () => {
    t = await createOAuthTestApp();
    accepted(await t.services.users.create({ uid: "bob", password: PASSWORD }));
    accepted(await t.services.groups.create("editors"));
    accepted(await t.services.groups.create("writers"));
    accepted(await t.services.groups.addMember("editors", "bob"));
    accepted(await t.services.groups.addMember("writers", "bob"));
    assert.ok((await t.services.oauth.clients.modify(WEB_CLIENT.name, "allowed-groups", "editors, writers")).ok);
    // A second application node on the same database (another connection, as a second server has).
    secondStorage = openStorage({ databaseUrl: t.testStorage.databaseUrl, dataDir: t.testStorage.dataDir });
    second = await createAppOn(secondStorage, t.testStorage.dataDir, new ManualClock());
  });
  after(async () => {
    await second.app.close();
    await secondStorage.close();
    await t.close();
  });

  async function tokensOfBob(): Promise<{ access_token: string; refresh_token: string }> {
    const browser = await loggedIn(t, "bob");
    const code = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    const tokens = await exchangeCode(t, code);
    assert.equal(tokens.statusCode, 200, tokens.body);
    return tokens.json();
  }
  const userinfoOn = (app: typeof second.app, token: string) =>
    app.inject({ method: "GET", url: "/index.php/apps/oauth2/api/v1/userinfo", headers: { authorization: `Bearer ${token}` } });

  it("removal from one allowed group while in another keeps the grant; from the last one ends refresh and access tokens at once on both nodes", async () => {
    const tokens = await tokensOfBob();
    assert.equal((await userinfoOn(second.app, tokens.access_token)).statusCode, 200);

    accepted(await t.services.groups.removeMember("editors", "bob"));
    assert.equal((await userinfoOn(second.app, tokens.access_token)).statusCode, 200, "still in writers");

    accepted(await t.services.groups.removeMember("writers", "bob"));
    assert.equal((await userinfoOn(second.app, tokens.access_token)).statusCode, 401, "refused on the other node at once");
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 401);
    const refreshed = await refresh(t, tokens.refresh_token);
    assert.equal(refreshed.statusCode, 400);
    assert.equal(refreshed.json().error, "invalid_grant");
  });

  it("an allowed-groups change that excludes the user ends their grants the same way; one that admits everyone ends none", async () => {
    accepted(await t.services.groups.addMember("editors", "bob"));
    assert.ok((await t.services.oauth.clients.modify(WEB_CLIENT.name, "allowed-groups", "")).ok);
    accepted(await t.services.groups.removeMember("editors", "bob"));
    const tokens = await tokensOfBob();
    assert.equal((await userinfoOn(second.app, tokens.access_token)).statusCode, 200);

    const changed = await t.services.oauth.clients.modify(WEB_CLIENT.name, "allowed-groups", "writers");
    assert.ok(changed.ok);
    assert.equal((await userinfoOn(second.app, tokens.access_token)).statusCode, 401);
    assert.equal((await refresh(t, tokens.refresh_token)).json().error, "invalid_grant");
  });

  it("a group an application admits cannot be deleted, so its list never silently becomes everyone", async () => {
    assert.match(
      assertRefused(await t.services.groups.delete("writers"), "group_in_use").message,
      /allowed on the application\(s\) "Web App"/,
    );
  });

  it("an unknown group is refused with a clear error, changing nothing", async () => {
    const result = await t.services.oauth.clients.modify(WEB_CLIENT.name, "allowed-groups", "writers,ghosts");
    assert.equal(result.ok, false);
    assert.match(result.ok ? "" : result.message, /unknown group\(s\): ghosts/);
    const listed = await t.services.oauth.clients.allowedGroups(await t.services.oauth.clients.list());
    assert.deepEqual([...listed.values()], [["writers"]]);
  });

  it("a dynamically registered client starts with the host setting oauth2.new_clients_allowed_groups, as an added one does", async () => {
    t.services.settings.set("oauth2.new_clients_allowed_groups", "writers");
    try {
      const registered = await t.services.oauth.register({ redirect_uris: ["http://127.0.0.1/cb"], client_name: "Reg" });
      assert.ok("client_id" in registered, JSON.stringify(registered));
      const client = await t.services.oauth.findClient(registered.client_id);
      assert.ok(client);
      assert.deepEqual((await t.services.oauth.clients.allowedGroups([client])).get(client.id), ["writers"]);
    } finally {
      t.services.settings.delete("oauth2.new_clients_allowed_groups");
    }
  });
});
