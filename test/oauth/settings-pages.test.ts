import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import {
  authorizeUrl,
  consent,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  loggedIn,
  oauthAppWithLoggedInAdmin,
  PNG,
  refresh,
  userinfo,
  WEB_CLIENT,
} from "./support.js";

describe("admin clients section (research A.8)", () => {
  const site = oauthAppWithLoggedInAdmin();

  const addForm = async (form: Record<string, string>) => {
    const page = await site.admin.get("/index.php/settings/admin/applications");
    return site.admin.post("/index.php/apps/oauth2/clients", { requesttoken: requestTokenOf(page.body), ...form });
  };

  it("lists the clients, the seeded defaults included, with their secrets hidden until asked for", async () => {
    const page = await site.admin.get("/index.php/settings/admin/applications");
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h2>OAuth 2.0<\/h2>/);
    for (const text of ["Desktop Client", "Android", "iOS", WEB_CLIENT.name, WEB_CLIENT.clientId]) {
      assert.ok(page.body.includes(text), text);
    }
    assert.ok(!page.body.includes(WEB_CLIENT.secret), "no secret on the page as rendered");
    const client = (await site.t.services.oauth.clients.list()).find((c) => c.name === WEB_CLIENT.name);
    assert.ok(client);
    const shown = await site.admin.post(`/index.php/apps/oauth2/clients/${client.id}/secret`, {
      requesttoken: requestTokenOf(page.body),
    });
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, new RegExp(`id="oauth2-client-secret-value">${WEB_CLIENT.secret}<`), "shown when asked for");
    assert.ok(
      !(await site.admin.get("/index.php/settings/admin/applications")).body.includes(WEB_CLIENT.secret),
      "and hidden again",
    );
  });

  it("adds a client with a generated 64-character id and secret", async () => {
    const response = await addForm({ name: "  Portal  ", redirect_uri: "https://portal.example.com/cb", trusted: "1" });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /The client “Portal” has been added\./);
    const client = (await site.t.services.oauth.clients.list()).find((c) => c.name === "Portal");
    assert.ok(client);
    assert.match(client.clientId, /^[A-Za-z0-9]{64}$/);
    assert.match(client.secret, /^[A-Za-z0-9]{64}$/);
    assert.equal(client.trusted, true);
    assert.equal(client.allowSubdomains, false);
  });

  it("refuses bad input with ownCloud's messages", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: " ", redirect_uri: "https://a.example/cb" }, "Name must not be empty"],
      [{ name: "X", redirect_uri: "" }, "Redirect URI must not be empty"],
      [{ name: "X", redirect_uri: "not a url" }, "Redirect URI must be a valid URL"],
      [{ name: "Portal", redirect_uri: "https://a.example/cb" }, "Name Portal already exists"],
      [{ name: "Local", redirect_uri: "http://localhost:*", trusted: "1" }, "Cannot set localhost as trusted."],
    ];
    for (const [form, message] of cases) {
      const response = await addForm(form);
      assert.equal(response.statusCode, 400, message);
      assert.ok(response.body.includes(message), message);
    }
  });

  it("is admin only and CSRF-protected", async () => {
    const user = await loggedIn(site.t);
    assert.equal((await user.get("/index.php/settings/admin/applications")).statusCode, 403);
    const page = await user.get("/index.php/settings/personal");
    const response = await user.post("/index.php/apps/oauth2/clients", {
      requesttoken: requestTokenOf(page.body),
      name: "Sneaky",
      redirect_uri: "https://s.example/cb",
    });
    assert.equal(response.statusCode, 403);
    const forged = await site.admin.post("/index.php/apps/oauth2/clients", {
      requesttoken: "forged",
      name: "Forged",
      redirect_uri: "https://s.example/cb",
    });
    assert.equal(forged.statusCode, 403);
    const names = (await site.t.services.oauth.clients.list()).map((c) => c.name);
    assert.ok(!names.includes("Sneaky") && !names.includes("Forged"));
  });

  it("deleting a client cuts its tokens off at once", async () => {
    const tokens = (await exchangeCode(site.t, await issueCode(site.t))).json();
    const client = (await site.t.services.oauth.clients.list()).find((c) => c.name === WEB_CLIENT.name);
    assert.ok(client);
    const page = await site.admin.get("/index.php/settings/admin/applications");
    const response = await site.admin.post(`/index.php/apps/oauth2/clients/${client.id}/delete`, {
      requesttoken: requestTokenOf(page.body),
    });
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /has been deleted/);
    assert.equal((await userinfo(site.t, tokens.access_token)).statusCode, 401);
    assert.equal(
      (await site.t.services.oauth.clients.list()).some((c) => c.name === WEB_CLIENT.name),
      false,
    );
  });
});

describe("personal authorized clients, revoke, events", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  /** The OAuth service's events, oldest first, as its audit listener recorded them (audit/oauth-events.ts). */
  async function events(): Promise<string[]> {
    await t.services.audit.flush();
    const recorded = (await t.services.audit.query({ limit: 1000 })).reverse();
    const told = { "oauth.client_authorized": "authorized", "oauth.grant_revoked": "revoked" } as Partial<Record<string, string>>;
    return recorded.flatMap((e) => {
      const what = told[e.kind];
      return what === undefined ? [] : [`${what} ${e.uid} ${e.subject} ${e.detail?.name}`];
    });
  }

  it("lists an authorized client and Revoke deletes all of the user's codes and tokens for it", async () => {
    const browser = await loggedIn(t);
    assert.match((await browser.get("/index.php/settings/personal")).body, /No applications authorized\./);
    const tokens = (await exchangeCode(t, await issueCode(t))).json();
    const pendingCode = new URL(await consent(browser, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    assert.equal((await events()).filter((e) => e.startsWith("authorized alice")).length, 2, "once per new grant");
    assert.equal((await events())[0], `authorized alice ${WEB_CLIENT.clientId} ${WEB_CLIENT.name}`);

    const page = await browser.get("/index.php/settings/personal");
    assert.match(page.body, /Authorized applications/);
    const action = /action="(\/index\.php\/apps\/oauth2\/clients\/\d+\/revoke)"/.exec(page.body)?.[1];
    assert.ok(action, "a Revoke form");
    assert.ok(page.body.includes(WEB_CLIENT.name));

    const response = await browser.post(action, { requesttoken: requestTokenOf(page.body) });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, "/index.php/settings/personal#oauth2");
    assert.equal((await userinfo(t, tokens.access_token)).statusCode, 401);
    assert.equal((await refresh(t, tokens.refresh_token)).json().error_description, "refresh token does not exist");
    assert.equal((await exchangeCode(t, pendingCode)).json().error_description, "authorization code does not exist");
    assert.match((await browser.get("/index.php/settings/personal")).body, /No applications authorized\./);
    assert.equal((await events()).at(-1), `revoked alice ${WEB_CLIENT.clientId} ${WEB_CLIENT.name}`);
    assert.ok(
      await t.services.oauth.clients.list().then((list) => list.some((c) => c.name === WEB_CLIENT.name)),
      "the client is kept",
    );
  });

  it("revoking touches only the revoking user's grants", async () => {
    accepted(await t.services.users.create({ uid: "bob", password: "bob password bob" }));
    const bob = await loggedIn(t, "bob", "bob password bob");
    const bobCode = new URL(await consent(bob, authorizeUrl(WEB_CLIENT))).searchParams.get("code") as string;
    const bobTokens = (await exchangeCode(t, bobCode)).json();
    (await exchangeCode(t, await issueCode(t))).json();
    const client = (await t.services.oauth.clients.list()).find((c) => c.name === WEB_CLIENT.name);
    assert.ok(client);
    assert.equal(await t.services.oauth.revoke("alice", client.id), true);
    assert.equal((await userinfo(t, bobTokens.access_token)).statusCode, 200);
  });

  it("a client is listed while a token is live; an expired implicit token alone does not list it", async () => {
    accepted(await t.services.users.create({ uid: "dora", password: "dora password!" }));
    const dora = await loggedIn(t, "dora", "dora password!");
    const fragment = new URL(await consent(dora, authorizeUrl(WEB_CLIENT, { response_type: "token" }))).hash;
    assert.match(fragment, /access_token=/);
    assert.equal((await t.services.oauth.authorizedClients("dora")).length, 1);
    t.clock.advance(3600);
    assert.equal((await t.services.oauth.authorizedClients("dora")).length, 0);
  });

  it("the personal page uploads an avatar (multipart, CSRF) and refuses non-images", async () => {
    const browser = await loggedIn(t);
    const page = await browser.get("/index.php/settings/personal");
    assert.match(page.body, /id="avatar-none"/);
    const upload = async (data: Buffer, token: string) => {
      const form = new FormData();
      form.set("requesttoken", token);
      form.set("avatar", new Blob([new Uint8Array(data)]), "me.png");
      const request = new Request("http://x/", { method: "POST", body: form });
      return t.app.inject({
        method: "POST",
        url: "/index.php/settings/personal/avatar",
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { "content-type": String(request.headers.get("content-type")), cookie: browser.cookieHeader },
      });
    };
    assert.equal((await upload(PNG, "forged")).statusCode, 403);
    const refused = await upload(Buffer.from("GIF89a not accepted"), requestTokenOf(page.body));
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /PNG or JPEG/);
    const saved = await upload(PNG, requestTokenOf(page.body));
    assert.equal(saved.statusCode, 200, saved.body);
    assert.match(saved.body, /id="avatar-image"/);
    assert.deepEqual((await t.services.avatars.get("alice"))?.data, PNG);
  });
});

describe("login page note (research A.2.1)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());
  it("names no application for an unknown client", async () => {
    const url = authorizeUrl({ ...WEB_CLIENT, clientId: "unknown" });
    const page = await new FormClient(t.app).get(`/index.php/login?redirect_url=${encodeURIComponent(url)}`);
    assert.doesNotMatch(page.body, /is requesting access/);
  });
});
