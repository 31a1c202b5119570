import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Migrator } from "kysely";
import { INTROSPECTION_PATH } from "../../src/http/oauth-paths.js";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { allMigrations } from "../../src/storage/migrations/index.js";
import type { TestApp } from "../support/app.js";
import { requestTokenOf } from "../support/browser-form.js";
import { runOccInProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";
import { createTestStorage } from "../support/storage.js";
import {
  addClient,
  basic,
  createOAuthTestApp,
  exchangeCode,
  issueCode,
  loggedIn,
  type TestClient,
  WEB_CLIENT,
} from "./support.js";

/** Issue 16 (review #6): who may introspect which token. */

const OTHER: TestClient = {
  name: "Other App",
  clientId: "audience-other-client-0123456789abcdefghij",
  secret: "audience-other-secret-0123456789abcdefghijkl",
  redirectUri: "https://other.example.net/cb",
};
const FILE_SERVER: TestClient = {
  name: "File server",
  clientId: "audience-file-server-0123456789abcdefghij",
  secret: "audience-file-server-secret-0123456789abcdef",
  redirectUri: "https://files.example.org/unused",
};
const DESKTOP = DEFAULT_CLIENTS.find((c) => c.name === "Desktop Client");

type Pair = { access_token: string; refresh_token: string };

function introspect(t: TestApp, token: string, caller: { clientId: string; secret: string }) {
  return t.app.inject({
    method: "POST",
    url: INTROSPECTION_PATH,
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(caller.clientId, caller.secret) },
    payload: new URLSearchParams({ token }).toString(),
  });
}

describe("introspection callers (issue 16)", () => {
  let t: TestApp;
  let pair: Pair;
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);
  const find = async (name: string) => (await t.services.oauth.clients.list()).find((c) => c.name === name);

  before(async () => {
    t = await createOAuthTestApp();
    await addClient(t, OTHER);
    pair = (await exchangeCode(t, await issueCode(t))).json() as Pair;
  });
  after(() => t.close());

  it("a client introspecting a token issued to another client gets only active:false", async () => {
    for (const token of [pair.access_token, pair.refresh_token]) {
      const response = await introspect(t, token, OTHER);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers["cache-control"], "no-store");
      assert.deepEqual(response.json(), { active: false });
    }
  });

  it("a seeded default client, whose secret is public, is no resource server: another client's token is active:false", async () => {
    assert.ok(DESKTOP);
    for (const seeded of DEFAULT_CLIENTS) assert.equal((await find(seeded.name))?.resourceServer, false, seeded.name);
    // The review's request: the Desktop client's published credentials and conf-client's refresh token.
    const response = await introspect(t, pair.refresh_token, DESKTOP);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { active: false });
  });

  it("a client may introspect the tokens issued to itself", async () => {
    const access = (await introspect(t, pair.access_token, WEB_CLIENT)).json();
    assert.equal(access.active, true);
    assert.equal(access.client_id, WEB_CLIENT.clientId);
    assert.equal(access.token_type, "Bearer");
    const refresh = (await introspect(t, pair.refresh_token, WEB_CLIENT)).json();
    assert.equal(refresh.active, true);
    assert.equal(refresh.token_type, "refresh_token");
  });

  it("a client added with --resource-server=true introspects the tokens of every client", async () => {
    const added = await occ(
      "oauth2:add-client",
      FILE_SERVER.name,
      FILE_SERVER.clientId,
      FILE_SERVER.secret,
      FILE_SERVER.redirectUri,
      "--resource-server=true",
    );
    assert.deepEqual(added, {
      code: 0,
      out: `The client "${FILE_SERVER.name}" was added successfully, client id ${FILE_SERVER.clientId}\n`,
      err: "",
    });
    assert.equal((await find(FILE_SERVER.name))?.resourceServer, true);
    const response = await introspect(t, pair.access_token, FILE_SERVER);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      active: true,
      scope: "account",
      aud: WEB_CLIENT.clientId,
      client_id: WEB_CLIENT.clientId,
      username: "alice",
      sub: "alice",
      exp: t.clock.nowSeconds() + 3600,
      iat: t.clock.nowSeconds(),
      token_type: "Bearer",
      iss: "http://localhost:80/index.php/apps/oauth2",
    });
  });

  it("oauth2:add-client refuses a --resource-server value other than true or false, and adds nothing", async () => {
    const result = await occ(
      "oauth2:add-client",
      "Maybe",
      `${OTHER.clientId}x`,
      OTHER.secret,
      OTHER.redirectUri,
      "--resource-server=yes",
    );
    assert.deepEqual(result, { code: 1, out: "", err: "Please enter true or false for resource-server.\n" });
    assert.equal(await find("Maybe"), undefined);
  });

  it("oauth2:modify-client key resource-server grants and withdraws the right to introspect other clients' tokens", async () => {
    assert.deepEqual(await occ("oauth2:modify-client", OTHER.name, "resource-server", "true"), { code: 0, out: "", err: "" });
    assert.equal((await introspect(t, pair.access_token, OTHER)).json().active, true);
    assert.deepEqual(await occ("oauth2:modify-client", OTHER.name, "resource-server", "false"), { code: 0, out: "", err: "" });
    assert.deepEqual((await introspect(t, pair.access_token, OTHER)).json(), { active: false });
    const refused = await occ("oauth2:modify-client", OTHER.name, "resource-server", "1");
    assert.deepEqual(refused, { code: 1, out: "", err: "Please enter true or false for resource-server.\n" });
    assert.equal((await find(OTHER.name))?.resourceServer, false);
  });

  it("oauth2:list-clients shows resource-server for every client, in plain and json output", async () => {
    const plain = await occ("oauth2:list-clients");
    assert.ok(plain.out.includes(`  - ${FILE_SERVER.name}:\n`), plain.out);
    assert.ok(plain.out.includes("    - trusted: false\n    - resource-server: true\n"), plain.out);
    assert.equal(plain.out.split("- resource-server: ").length - 1, (await t.services.oauth.clients.list()).length);
    const json = JSON.parse((await occ("oauth2:list-clients", "--output=json")).out);
    assert.equal(json[FILE_SERVER.name]["resource-server"], true);
    assert.equal(json[OTHER.name]["resource-server"], false);
    assert.equal(json["Desktop Client"]["resource-server"], false);
  });

  it("the admin page's resource-server checkbox marks the new client, and its list shows the column", async () => {
    accepted(await t.services.users.create({ uid: "root", password: "root password!", isAdmin: true }));
    const admin = await loggedIn(t, "root", "root password!");
    const page = await admin.get("/index.php/settings/admin/applications");
    assert.match(page.body, /<th scope="col">Options<\/th>/, "the flags column (resource server among them)");
    assert.match(page.body, /<input type="checkbox" name="resource_server" value="1">/);
    const post = (name: string, extra: Record<string, string>) =>
      admin.post("/index.php/apps/oauth2/clients", {
        requesttoken: requestTokenOf(page.body),
        name,
        redirect_uri: "https://gateway.example.org/cb",
        ...extra,
      });
    assert.equal((await post("Gateway", { resource_server: "1" })).statusCode, 200);
    assert.equal((await post("Plain web app", {})).statusCode, 200);
    assert.equal((await find("Gateway"))?.resourceServer, true);
    assert.equal((await find("Plain web app"))?.resourceServer, false);
    const listed = await admin.get("/index.php/settings/admin/applications");
    const gatewayRow = listed.body.split("<tr>").find((row) => row.startsWith('<td data-label="Name">Gateway</td>'));
    assert.ok(gatewayRow);
    assert.match(gatewayRow, /<td data-label="Options">Resource server<\/td>/);
  });
});

describe("migration 2026_11_24_0008_client_resource_server", () => {
  it("gives every client that existed before it, a seeded default included, resource-server false", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const migrations = allMigrations(t.storage.dialect);
      const migrator = new Migrator({ db: t.storage.db, provider: { getMigrations: async () => migrations } });
      assert.equal((await migrator.migrateTo("2026_11_21_0006_token_rowids")).error, undefined);
      const db = t.storage.db;
      // The columns as they were before 0008 (the table's type already has the new one).
      const insert = (name: string, clientId: string) =>
        db
          .insertInto("oauth2_clients")
          .values({
            name,
            client_id: clientId,
            secret_encrypted: "sealed",
            redirect_uri: "https://before.example/cb",
            allow_subdomains: 0,
            trusted: 1,
            created_at: 1,
          })
          .execute();
      await insert("Desktop Client", DESKTOP?.clientId ?? "");
      await insert("Earlier app", "earlier-app-client-id-0123456789abcdefgh");
      assert.ok((await migrateToLatest(t.storage)).applied.includes("2026_11_24_0008_client_resource_server"));
      const rows = await db.selectFrom("oauth2_clients").select(["name", "resource_server"]).orderBy("name").execute();
      assert.deepEqual(
        rows.map((r) => [r.name, Number(r.resource_server)]),
        [
          ["Desktop Client", 0],
          ["Earlier app", 0],
        ],
      );
    } finally {
      await t.cleanup();
    }
  });
});
