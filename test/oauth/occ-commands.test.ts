import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import type { TestApp } from "../support/app.js";
import { runOccInProcess } from "../support/occ.js";
import { createOAuthTestApp, exchangeCode, issueCode, PNG, userinfo, WEB_CLIENT } from "./support.js";

const ID = "clientid0123456789abcdefghijklmnopqrstuvwxyz";
const SECRET = "clientsecret0123456789abcdefghijklmnopqrstuvw";

describe("occ oauth2:* commands (research A.5)", () => {
  let t: TestApp;
  before(async () => {
    t = await createOAuthTestApp();
  });
  after(() => t.close());

  /** Runs ./occ in-process on the test's storage; captures stdout and stderr. */
  const occ = (...argv: string[]) => runOccInProcess(argv, t.testStorage);

  const names = async () => (await t.services.oauth.clients.list()).map((c) => c.name);

  describe("oauth2:add-client", () => {
    beforeEach(async () => {
      await occ("oauth2:remove-client", ID);
    });

    it("adds a client, saying what it did (exit 0), with the defaults false", async () => {
      const result = await occ("oauth2:add-client", "CLI App", ID, SECRET, "https://cli.example.com/cb");
      assert.deepEqual(result, { code: 0, out: `The client "CLI App" was added successfully, client id ${ID}\n`, err: "" });
      const client = await t.services.oauth.clients.list().then((list) => list.find((c) => c.name === "CLI App"));
      assert.deepEqual(client && { ...client, id: 0 }, {
        id: 0,
        name: "CLI App",
        clientId: ID,
        secret: SECRET,
        redirectUri: "https://cli.example.com/cb",
        allowSubdomains: false,
        trusted: false,
        resourceServer: false,
      });
    });

    it("accepts the positional booleans and --trusted=true", async () => {
      assert.equal((await occ("oauth2:add-client", "CLI App", ID, SECRET, "https://cli.example.com/cb", "true", "true")).code, 0);
      let client = (await t.services.oauth.clients.list()).find((c) => c.name === "CLI App");
      assert.equal(client?.allowSubdomains, true);
      assert.equal(client?.trusted, true);
      await occ("oauth2:remove-client", ID);
      assert.equal(
        (await occ("oauth2:add-client", "CLI App", ID, SECRET, "https://cli.example.com/cb", "--trusted=true")).code,
        0,
      );
      client = (await t.services.oauth.clients.list()).find((c) => c.name === "CLI App");
      assert.equal(client?.trusted, true);
      assert.equal(client?.allowSubdomains, false);
    });

    it("refuses, in order, with ownCloud's messages and exit 1", async () => {
      const cases: Array<[string[], string]> = [
        [["X", "short", "short", "x"], "The client id should be at least 32 characters long"],
        [["X", ID, "short", "x"], "The client secret should be at least 32 characters long"],
        [["X", ID, SECRET, "http://owncloud.org:*"], "The redirect URL is not valid."],
        [["X", ID, SECRET, "https://a.example/cb", "maybe"], "Please enter true or false for allowed-sub-domains."],
        [["X", ID, SECRET, "https://a.example/cb", "false", "1"], "Please enter true or false for trusted."],
        [[WEB_CLIENT.name, ID, SECRET, "https://a.example/cb"], `Client name ${WEB_CLIENT.name} is already known.`],
        [["X", WEB_CLIENT.clientId, SECRET, "https://a.example/cb"], `Client ${WEB_CLIENT.clientId} is already known.`],
      ];
      for (const [args, message] of cases) {
        const result = await occ("oauth2:add-client", ...args);
        assert.equal(result.code, 1, message);
        assert.equal(result.err, `${message}\n`);
      }
      assert.ok(!(await names()).includes("X"));
    });

    it("refuses to trust a localhost or 127.0.0.1 client without force-trust", async () => {
      for (const uri of ["http://localhost:*", "http://127.0.0.1:8080/cb"]) {
        const result = await occ("oauth2:add-client", "Local", ID, SECRET, uri, "false", "true");
        assert.equal(result.code, 1);
        assert.equal(result.err, "Cannot set localhost as trusted.\n");
      }
      assert.ok(!(await names()).includes("Local"));
      assert.equal((await occ("oauth2:add-client", "Local", ID, SECRET, "http://localhost:*", "false", "true", "true")).code, 0);
      await occ("oauth2:remove-client", ID);
      assert.equal(
        (await occ("oauth2:add-client", "Local", ID, SECRET, "http://localhost:*", "--trusted=true", "--force-trust=yes")).code,
        0,
      );
    });
  });

  describe("oauth2:list-clients", () => {
    it("plain: one block per client with every key, secrets shown", async () => {
      const result = await occ("oauth2:list-clients");
      assert.equal(result.code, 0);
      assert.ok(
        result.out.includes(
          `  - ${WEB_CLIENT.name}:\n    - name: ${WEB_CLIENT.name}\n    - redirect-url: ${WEB_CLIENT.redirectUri}\n    - client-id: ${WEB_CLIENT.clientId}\n    - client-secret: ${WEB_CLIENT.secret}\n    - allow-sub-domains: false\n    - trusted: false\n`,
        ),
        result.out,
      );
    });
    it("json: one line keyed by name, slashes escaped as PHP does; json_pretty indents by 4", async () => {
      const json = await occ("oauth2:list-clients", "--output=json");
      assert.equal(json.out.split("\n").length, 2);
      assert.ok(json.out.includes('"redirect-url":"http:\\/\\/localhost:*"'));
      const parsed = JSON.parse(json.out);
      assert.deepEqual(parsed[WEB_CLIENT.name], {
        name: WEB_CLIENT.name,
        "redirect-url": WEB_CLIENT.redirectUri,
        "client-id": WEB_CLIENT.clientId,
        "client-secret": WEB_CLIENT.secret,
        "allow-sub-domains": false,
        trusted: false,
        "resource-server": false,
      });
      const pretty = await occ("oauth2:list-clients", "--output=json_pretty");
      assert.match(pretty.out, /^\{\n {4}"Desktop Client": \{\n {8}"name"/);
    });
  });

  describe("oauth2:modify-client", () => {
    before(async () => {
      await occ("oauth2:remove-client", ID);
      await occ("oauth2:add-client", "Modifiable", ID, SECRET, "https://mod.example.com/cb");
    });

    it("changes each key", async () => {
      for (const [key, value] of [
        ["client-secret", `${SECRET}2`],
        ["redirect-url", "https://mod.example.com/cb2"],
        ["allow-sub-domains", "true"],
        ["trusted", "true"],
      ]) {
        assert.deepEqual(await occ("oauth2:modify-client", "Modifiable", key as string, value as string), {
          code: 0,
          out: "",
          err: "",
        });
      }
      assert.equal((await occ("oauth2:modify-client", "Modifiable", "name", "Modified")).code, 0);
      const client = (await t.services.oauth.clients.list()).find((c) => c.name === "Modified");
      assert.equal(client?.secret, `${SECRET}2`);
      assert.equal(client?.redirectUri, "https://mod.example.com/cb2");
      assert.equal(client?.allowSubdomains, true);
      assert.equal(client?.trusted, true);
      assert.equal((await occ("oauth2:modify-client", "Modified", "name", "Modifiable")).code, 0);
    });

    it("refuses with ownCloud's messages", async () => {
      const cases: Array<[string[], string]> = [
        [["Nope", "name", "x"], "Client with name Nope does not exist."],
        [["Modifiable", "color", "x"], "Key color is not valid."],
        [["Modifiable", "client-id", "short"], "The client id should be at least 32 characters long"],
        [["Modifiable", "client-secret", "short"], "The client secret should be at least 32 characters long"],
        [["Modifiable", "redirect-url", "x"], "The redirect URL is not valid."],
        [["Modifiable", "trusted", "yes"], "Please enter true or false for trusted."],
        [["Modifiable", "allow-sub-domains", "1"], "Please enter true or false for allowed-sub-domains."],
        [["Modifiable", "name", "Modifiable"], "Client name Modifiable is already known."],
        [["Modifiable", "client-id", WEB_CLIENT.clientId], `Client ${WEB_CLIENT.clientId} is already known.`],
      ];
      for (const [args, message] of cases) {
        const result = await occ("oauth2:modify-client", ...args);
        assert.equal(result.code, 1, message);
        assert.equal(result.err, `${message}\n`);
      }
    });

    it("refuses trusting localhost here too (stricter than ownCloud), unless --force-trust=true", async () => {
      await occ("oauth2:modify-client", "Modifiable", "trusted", "false");
      assert.equal((await occ("oauth2:modify-client", "Modifiable", "redirect-url", "http://localhost:*")).code, 0);
      const refused = await occ("oauth2:modify-client", "Modifiable", "trusted", "true");
      assert.equal(refused.err, "Cannot set localhost as trusted.\n");
      assert.equal((await t.services.oauth.clients.list()).find((c) => c.name === "Modifiable")?.trusted, false);
      assert.equal((await occ("oauth2:modify-client", "Modifiable", "trusted", "true", "--force-trust=true")).code, 0);
    });
  });

  describe("oauth2:remove-client", () => {
    it("deletes the client and at once its codes and tokens", async () => {
      const tokens = (await exchangeCode(t, await issueCode(t))).json();
      const result = await occ("oauth2:remove-client", WEB_CLIENT.clientId);
      assert.deepEqual(result, { code: 0, out: `Client ${WEB_CLIENT.clientId} has been deleted\n`, err: "" });
      assert.equal((await userinfo(t, tokens.access_token)).statusCode, 401);
      const { db } = t.services.storage;
      // Every grant in this app was WEB_CLIENT's: nothing of it is left.
      for (const table of ["oauth2_grants", "oauth2_codes", "oauth2_access_tokens", "oauth2_refresh_tokens"] as const) {
        const rows = await db.selectFrom(table).selectAll().execute();
        assert.equal(rows.length, 0, table);
      }
      const unknown = await occ("oauth2:remove-client", WEB_CLIENT.clientId);
      assert.equal(unknown.code, 1);
      assert.equal(unknown.err, `Client ${WEB_CLIENT.clientId} is unknown\n`);
    });
  });

  describe("user:set-avatar", () => {
    it("sets a PNG avatar from a file and refuses other files", async () => {
      const file = path.join(t.testStorage.dataDir, "me.png");
      fs.writeFileSync(file, PNG);
      assert.equal((await occ("user:set-avatar", "alice", file)).code, 0);
      assert.deepEqual((await t.services.avatars.get("alice"))?.data, PNG);
      fs.writeFileSync(file, "not an image");
      const refused = await occ("user:set-avatar", "alice", file);
      assert.equal(refused.code, 1);
      assert.match(refused.err, /PNG or JPEG/);
      assert.equal((await occ("user:set-avatar", "nobody", file)).code, 1);
      assert.equal((await occ("user:remove-avatar", "alice")).code, 0);
      assert.equal(await t.services.avatars.get("alice"), undefined);
    });
  });
});
