import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { backchannelLogoutUriProblem } from "../../src/oauth/domain/backchannel-logout-uri.js";
import { loggedIn, WEB_CLIENT } from "../oauth/support.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";
import { createOidcTestApp } from "./support.js";

describe("a back-channel logout URI is an absolute http(s) URL without fragment, https unless on loopback", () => {
  it("accepts https anywhere, http on a loopback host, and a query (mod_auth_openidc's ?logout=backchannel)", () => {
    for (const uri of [
      "https://rp.example.org/logout",
      "https://rp.example.org:8443/redirect_uri?logout=backchannel",
      "http://127.0.0.1:8080/redirect_uri?logout=backchannel",
      "http://localhost/logout",
      "http://[::1]:9000/bc",
    ]) {
      assert.equal(backchannelLogoutUriProblem(uri), undefined, uri);
    }
  });

  it("refuses plain http to a host that is not loopback, a fragment, credentials, other schemes, relative URLs", () => {
    assert.equal(backchannelLogoutUriProblem("http://rp.example.org/logout"), "not-https");
    assert.equal(backchannelLogoutUriProblem("http://10.0.0.5/logout"), "not-https");
    for (const uri of [
      "https://rp.example.org/logout#x",
      "https://user:pw@rp.example.org/logout",
      "ftp://rp.example.org/logout",
      "/logout",
      "https:///logout",
      "not a url",
    ]) {
      assert.equal(backchannelLogoutUriProblem(uri), "invalid", uri);
    }
  });
});

describe(`back-channel logout URI registration (${testDatabaseDialect})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createOidcTestApp();
  });
  after(() => t.close());
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);
  const find = async (name: string) => (await t.services.oauth.clients.list()).find((c) => c.name === name);

  it("oauth2:add-client --backchannel-logout-url registers it, oauth2:list-clients shows it, an http URL off loopback is refused", async () => {
    const args = ["Apache", "a".repeat(40), "s".repeat(40), "https://rp.example.org/redirect_uri"];
    const refused = await occ("oauth2:add-client", ...args, "--backchannel-logout-url=http://rp.example.org/redirect_uri");
    assert.deepEqual(refused, {
      code: 1,
      out: "",
      err: "The back-channel logout URL must use https (http only on a loopback address: localhost, 127.0.0.1, [::1]).\n",
    });
    assert.equal(await find("Apache"), undefined, "nothing half-written");
    const url = "https://rp.example.org/redirect_uri?logout=backchannel";
    const added = await occ("oauth2:add-client", ...args, `--backchannel-logout-url=${url}`);
    assert.equal(added.code, 0, added.err);
    assert.equal((await find("Apache"))?.backchannelLogoutUri, url);
    const listed = JSON.parse((await occ("oauth2:list-clients", "--output=json")).out);
    assert.equal(listed.Apache["backchannel-logout-url"], url);
    assert.equal(listed[WEB_CLIENT.name]["backchannel-logout-url"], undefined, "a client without one lists no key");
  });

  it("oauth2:modify-client key backchannel-logout-url sets it, refuses a fragment, and an empty value removes it", async () => {
    const fragment = await occ("oauth2:modify-client", WEB_CLIENT.name, "backchannel-logout-url", "https://app.example.com/bc#x");
    assert.equal(fragment.code, 1);
    assert.match(fragment.err, /back-channel logout URL is not valid/);
    assert.equal((await find(WEB_CLIENT.name))?.backchannelLogoutUri, undefined);
    const set = await occ("oauth2:modify-client", WEB_CLIENT.name, "backchannel-logout-url", "https://app.example.com/bc");
    assert.equal(set.code, 0, set.err);
    assert.equal((await find(WEB_CLIENT.name))?.backchannelLogoutUri, "https://app.example.com/bc");
    assert.equal((await occ("oauth2:modify-client", WEB_CLIENT.name, "backchannel-logout-url", "")).code, 0);
    assert.equal((await find(WEB_CLIENT.name))?.backchannelLogoutUri, undefined);
  });

  it("the admin page's back-channel logout URI field registers it on add and edit, by the same rule", async () => {
    accepted(await t.services.users.create({ uid: "admin", password: "admin password 1", displayName: "Admin", isAdmin: true }));
    const browser = await loggedIn(t, "admin", "admin password 1");
    const page = await browser.get("/index.php/settings/admin/applications");
    assert.match(
      page.body,
      /<label for="oauth2-backchannel-logout">[^<]+<\/label><input type="url" id="oauth2-backchannel-logout" name="backchannel_logout_uri"/,
    );
    const token = requestTokenOf(page.body);
    const form = { requesttoken: token, name: "Immich", redirect_uri: "https://photos.example.org/cb" };
    const bad = await browser.post("/index.php/apps/oauth2/clients", {
      ...form,
      backchannel_logout_uri: "http://photos.example.org/bc",
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /must use https/);
    assert.equal(await find("Immich"), undefined);
    const good = await browser.post("/index.php/apps/oauth2/clients", {
      ...form,
      backchannel_logout_uri: "https://photos.example.org/bc",
    });
    assert.equal(good.statusCode, 200, good.body);
    const immich = await find("Immich");
    assert.equal(immich?.backchannelLogoutUri, "https://photos.example.org/bc");
    assert.match(good.body, /https:\/\/photos\.example\.org\/bc/);

    const edited = await browser.post(`/index.php/apps/oauth2/clients/${String(immich?.id)}/edit`, {
      requesttoken: token,
      name: "Immich",
      client_id: immich?.clientId ?? "",
      redirect_uri: "https://photos.example.org/cb",
      backchannel_logout_uri: "http://127.0.0.1:8080/bc",
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal((await find("Immich"))?.backchannelLogoutUri, "http://127.0.0.1:8080/bc");
  });
});
