import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient, requestTokenOf } from "../support/browser-form.js";
import { accepted } from "../support/results.js";
import { testDatabaseDialect } from "../support/storage.js";

const GROUPS = "/index.php/settings/admin/groups";

/** The console's groups area: list with member counts, create, delete, members; post/redirect/get. */
describe(`admin console: the groups area (${testDatabaseDialect})`, () => {
  let t: TestApp;
  let root: FormClient;
  let token: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "root", password: "root password", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice", password: "alice password", displayName: "Alice A" }));
    root = new FormClient(t.app);
    assert.equal((await root.login("root", "root password")).statusCode, 303);
    const page = await root.get(GROUPS);
    assert.equal(page.statusCode, 200);
    token = requestTokenOf(page.body);
  });
  after(() => t.close());

  /** Posts a form and follows its redirect: the page after a change and its notice. */
  async function submit(path: string, form: Record<string, string>): Promise<string> {
    const response = await root.post(`${GROUPS}/${path}`, { requesttoken: token, ...form });
    assert.equal(response.statusCode, 303, response.body);
    assert.equal(response.headers.location, `${GROUPS}#groups`);
    const page = await root.get(GROUPS);
    assert.equal(page.statusCode, 200);
    return page.body;
  }

  it("lists the groups with their member counts, admin with its administrator", async () => {
    const page = (await root.get(GROUPS)).body;
    assert.match(page, /<table class="responsive" id="group-list">/);
    assert.match(page, /<td data-label="Group">admin<\/td><td data-label="Members">1<\/td>/);
  });

  it("creates a group, says so after the redirect, and a reload creates nothing more", async () => {
    const page = await submit("create", { gid: "editors", display_name: "The Editors" });
    assert.match(page, /id="groups-notice" role="status">Created group &quot;editors&quot;/);
    assert.match(page, /editors<div class="muted">The Editors<\/div>/);
    const again = await root.get(GROUPS);
    assert.doesNotMatch(again.body, /groups-notice/);
  });

  it("a refused name is said on the page (400) with what was sent, nothing written", async () => {
    const refused = await root.post(`${GROUPS}/create`, { requesttoken: token, gid: "a,b" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /id="groups-error" role="alert">invalid group name &quot;a,b&quot;/);
    assert.match(refused.body, /name="gid" maxlength="64" required value="a,b"/);
    assert.equal(await t.services.groups.find("a,b"), undefined);
  });

  it("adds and removes members by user name; an unknown user is refused", async () => {
    let page = await submit("add-member", { gid: "editors", uid: "alice" });
    assert.match(page, /Added &quot;alice&quot; to &quot;editors&quot;/);
    assert.match(page, /Alice A \(alice\)/);
    assert.deepEqual(await t.services.groups.groupsOf("alice"), ["editors"]);
    const unknown = await root.post(`${GROUPS}/add-member`, { requesttoken: token, gid: "editors", uid: "ghost" });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.body, /the user &quot;ghost&quot; does not exist/);
    page = await submit("remove-member", { gid: "editors", uid: "alice" });
    assert.match(page, /Removed &quot;alice&quot; from &quot;editors&quot;/);
    assert.deepEqual(await t.services.groups.groupsOf("alice"), []);
  });

  it("the last administrator cannot be removed from admin here either; admin has no delete button", async () => {
    const refused = await root.post(`${GROUPS}/remove-member`, { requesttoken: token, gid: "admin", uid: "root" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /is the last administrator/);
    const page = (await root.get(GROUPS)).body;
    const adminRow = /<tr id="group-0">[\s\S]*?<\/tr>/.exec(page)?.[0] ?? "";
    assert.match(adminRow, /admin/);
    assert.doesNotMatch(adminRow, /action="\/index\.php\/settings\/admin\/groups\/delete"/);
  });

  it("deletes a group after the confirmation disclosure", async () => {
    const page = await submit("delete", { gid: "editors" });
    assert.match(page, /Deleted group &quot;editors&quot;/);
    assert.equal(await t.services.groups.find("editors"), undefined);
  });

  it("only administrators reach the area and its forms", async () => {
    const alice = new FormClient(t.app);
    assert.equal((await alice.login("alice", "alice password")).statusCode, 303);
    assert.equal((await alice.get(GROUPS)).statusCode, 403);
    const forged = await alice.post(`${GROUPS}/create`, { requesttoken: token, gid: "mine" });
    assert.equal(forged.statusCode, 403);
    assert.equal(await t.services.groups.find("mine"), undefined);
  });

  it("the admin client form sets and shows an application's allowed groups", async () => {
    accepted(await t.services.groups.create("staff"));
    const apps = await root.get("/index.php/settings/admin/applications");
    const added = await root.post("/index.php/apps/oauth2/clients", {
      requesttoken: requestTokenOf(apps.body),
      name: "Staff Wiki",
      redirect_uri: "https://wiki.example.com/cb",
      allowed_groups: "staff",
    });
    assert.ok([200, 303].includes(added.statusCode), added.body);
    const client = (await t.services.oauth.clients.list()).find((c) => c.name === "Staff Wiki");
    assert.ok(client);
    assert.deepEqual((await t.services.oauth.clients.allowedGroups([client])).get(client.id), ["staff"]);
    const page = await root.get("/index.php/settings/admin/applications");
    assert.match(page.body, /Groups: staff/);
    assert.match(page.body, /name="allowed_groups" value="staff"/);
    const unknown = await root.post("/index.php/apps/oauth2/clients", {
      requesttoken: requestTokenOf(apps.body),
      name: "Other",
      redirect_uri: "https://other.example.com/cb",
      allowed_groups: "nobody-group",
    });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.body, /unknown group\(s\): nobody-group/);
  });
});
