import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, afterEach, before, describe, it, mock } from "node:test";
import { createTestApp, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { runOcc } from "../support/occ.js";
import { accepted } from "../support/results.js";

function basic(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
}

/** One line on stderr, ending in a newline: the operator's error message. */
function assertOneLineError(stderr: string, pattern: RegExp): void {
  assert.match(stderr, pattern);
  assert.equal(stderr.trimEnd().split("\n").length, 1, `one line, got: ${JSON.stringify(stderr)}`);
}

describe("./occ (the real executable, on the test's storage)", () => {
  let t: TestApp;
  const occ = (args: string[], env: Record<string, string> = {}, input?: string) => runOcc(args, t.testStorage, env, input);
  const configFile = () => path.join(t.testStorage.dataDir, "config.json");

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());
  afterEach(() => mock.timers.reset());

  it("--help lists the commands and exits 0; every command has --help", async () => {
    const help = await occ(["--help"]);
    assert.equal(help.code, 0, help.stderr);
    for (const command of ["user:add", "user:list", "user:delete", "user:disable", "user:enable", "user:resetpassword"]) {
      assert.match(help.stdout, new RegExp(command));
    }
    for (const command of ["user:add-app-password", "config:system:set", "config:system:get", "migrate", "serve"]) {
      assert.match(help.stdout, new RegExp(command));
    }
    const sub = await occ(["user:add", "--help"]);
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /--password-from-env/);
    assert.match(sub.stdout, /--display-name/);
  });

  it("an unknown command exits 2 (a usage error) with a message", async () => {
    const result = await occ(["user:frobnicate"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command 'user:frobnicate'/);
  });

  it("user:add with --password-from-env (OC_PASS) creates a user who can log in", async () => {
    const result = await occ(
      ["user:add", "alice", "--password-from-env", "--display-name=Alice A", "--email=alice@example.com"],
      {
        OC_PASS: "alice password",
      },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'The user "alice" was created successfully\n');
    const alice = await t.services.users.find("alice");
    assert.equal(alice?.displayName, "Alice A");
    assert.equal(alice?.email, "alice@example.com");
    assert.equal(alice?.isAdmin, false);
    const login = await new FormClient(t.app).login("alice", "alice password");
    assert.equal(login.statusCode, 303);
  });

  it("user:add --admin makes an administrator", async () => {
    const result = await occ(["user:add", "root", "--admin", "--password-from-env"], { OC_PASS: "root password" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await t.services.users.find("root"))?.isAdmin, true);
  });

  it("a duplicate uid: exit 1, one line, and the existing user is unchanged", async () => {
    const before = await t.services.users.list();
    const result = await occ(["user:add", "alice", "--password-from-env", "--display-name=Impostor"], {
      OC_PASS: "other password",
    });
    assert.equal(result.code, 1);
    assertOneLineError(result.stderr, /^the user "alice" already exists$/m);
    assert.equal(result.stdout, "");
    assert.deepEqual(await t.services.users.list(), before);
    assert.ok(await t.services.users.checkPassword("alice", "alice password"));
  });

  it("--password-from-env without OC_PASS: exit 1 and no user", async () => {
    const result = await occ(["user:add", "nopass", "--password-from-env"]);
    assert.equal(result.code, 1);
    assertOneLineError(result.stderr, /OC_PASS is empty/);
    assert.equal(await t.services.users.find("nopass"), undefined);
  });

  it("invalid user input: exit 1, one line, no user", async () => {
    for (const args of [
      ["user:add", "bad/uid", "--password-from-env"],
      ["user:add", "bademail", "--password-from-env", "--email=nope"],
      ["user:add", "shortpw", "--password-from-env"],
    ]) {
      const result = await occ(args, { OC_PASS: args[1] === "shortpw" ? "short" : "long enough password" });
      assert.equal(result.code, 1, args.join(" "));
      assertOneLineError(result.stderr, /./);
      assert.equal(await t.services.users.find(args[1] ?? ""), undefined);
    }
  });

  it("user:list prints plain and JSON", async () => {
    const plain = await occ(["user:list"]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^ {2}- alice: Alice A$/m);
    assert.match(plain.stdout, /^ {2}- root: root$/m);
    const json = await occ(["user:list", "--output=json"]);
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.stdout), { alice: { displayName: "Alice A" }, root: { displayName: "root" } });
    const bad = await occ(["user:list", "--output=xml"]);
    assert.equal(bad.code, 2, "a bad option value is a usage error");
    assert.match(bad.stderr, /option '--output <format>' argument 'xml' is invalid/);
  });

  it("user:add-app-password prints the password alone, and it works for Basic", async () => {
    const result = await occ(["user:add-app-password", "alice", "--name=backup script"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^[A-Za-z0-9]{72}\n$/);
    const secret = result.stdout.trim();
    const response = await t.app.inject({
      method: "GET",
      url: "/ocs/v1.php/cloud/user?format=json",
      headers: { authorization: basic("alice", secret) },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().ocs.data.id, "alice");
    assert.deepEqual(
      (await t.services.appPasswords.list("alice")).map((p) => p.name),
      ["backup script"],
    );
    const missing = await occ(["user:add-app-password", "nobody"]);
    assert.equal(missing.code, 1);
    assertOneLineError(missing.stderr, /"nobody" does not exist/);
  });

  it("user:disable ends the user's sessions and refuses logins; user:enable lets them in again", async () => {
    const browser = new FormClient(t.app);
    await browser.login("alice", "alice password");
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 200);
    const disabled = await occ(["user:disable", "alice"]);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal((await t.services.users.find("alice"))?.enabled, false);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303, "the session ended");
    assert.equal((await new FormClient(t.app).login("alice", "alice password")).statusCode, 403);
    const enabled = await occ(["user:enable", "alice"]);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.equal((await new FormClient(t.app).login("alice", "alice password")).statusCode, 303);
    assert.equal((await occ(["user:disable", "nobody"])).code, 1);
  });

  it("user:resetpassword sets a new password from OC_PASS", async () => {
    const refused = await occ(["user:resetpassword", "alice"], { OC_PASS: "new alice password" });
    assert.equal(refused.code, 1, "needs --password-from-env");
    assert.ok(await t.services.users.checkPassword("alice", "alice password"));
    const result = await occ(["user:resetpassword", "alice", "--password-from-env"], { OC_PASS: "new alice password" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await t.services.users.checkPassword("alice", "alice password"), undefined);
    assert.ok(await t.services.users.checkPassword("alice", "new alice password"));
    const tooShort = await occ(["user:resetpassword", "alice", "--password-from-env"], { OC_PASS: "short" });
    assert.equal(tooShort.code, 1);
    assert.ok(await t.services.users.checkPassword("alice", "new alice password"));
  });

  it("user:resetpassword ends the user's browser sessions (the one password rule, as on the admin page)", async () => {
    accepted(await t.services.users.create({ uid: "reset-me", password: "reset-me password" }));
    const browser = new FormClient(t.app);
    assert.equal((await browser.login("reset-me", "reset-me password")).statusCode, 303);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 200);
    const result = await occ(["user:resetpassword", "reset-me", "--password-from-env"], { OC_PASS: "a new password" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await browser.get("/index.php/settings/personal")).statusCode, 303, "signed out");
  });

  it("config:system:set/get store validated values in config.json", async () => {
    const get = await occ(["config:system:get", "overwrite.cli.url"]);
    assert.equal(get.code, 1, "not set yet");
    const set = await occ(["config:system:set", "overwrite.cli.url", "--value=https://cloud.example.com/"]);
    assert.equal(set.code, 0, set.stderr);
    assert.equal((await occ(["config:system:get", "overwrite.cli.url"])).stdout, "https://cloud.example.com\n");
    const bool = await occ(["config:system:set", "token_auth_enforced", "--value=true", "--type=boolean"]);
    assert.equal(bool.code, 0, bool.stderr);
    assert.equal((await occ(["config:system:get", "token_auth_enforced"])).stdout, "true\n");
    assert.deepEqual(JSON.parse(fs.readFileSync(configFile(), "utf8")), {
      "overwrite.cli.url": "https://cloud.example.com",
      token_auth_enforced: true,
    });
    const unknown = await occ(["config:system:get", "no.such"]);
    assert.equal(unknown.code, 1);
  });

  it("a malformed config value: exit 1, one line, config.json unchanged byte for byte", async () => {
    const before = fs.readFileSync(configFile());
    const mtime = fs.statSync(configFile()).mtimeMs;
    for (const args of [
      ["config:system:set", "token_auth_enforced", "--value=maybe"],
      ["config:system:set", "overwrite.cli.url", "--value=not a url"],
      ["config:system:set", "session.lifetime", "--value=12abc"],
      ["config:system:set", "no.such.setting", "--value=1"],
    ]) {
      const result = await occ(args);
      assert.equal(result.code, 1, args.join(" "));
      assertOneLineError(result.stderr, /invalid value|unknown setting/);
    }
    assert.ok(fs.readFileSync(configFile()).equals(before));
    assert.equal(fs.statSync(configFile()).mtimeMs, mtime);
    assert.deepEqual(
      fs.readdirSync(t.testStorage.dataDir).filter((f) => f.endsWith(".tmp")),
      [],
    );
  });

  it("a setting changed with occ reaches the running server without a restart", async () => {
    mock.timers.enable({ apis: ["Date"], now: Date.now() });
    t.services.settings.get("maintenance");
    assert.equal((await t.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 200);
    const on = await occ(["config:system:set", "maintenance", "--value=true"]);
    assert.equal(on.code, 0, on.stderr);
    mock.timers.tick(1001);
    assert.equal((await t.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 503);
    const off = await occ(["config:system:set", "maintenance", "--value=false"]);
    assert.equal(off.code, 0, off.stderr);
    mock.timers.tick(1001);
    assert.equal((await t.app.inject({ method: "GET", url: "/index.php/login" })).statusCode, 200);
  });

  it("user:delete removes the user with their app passwords and sessions", async () => {
    const { secret } = accepted(await t.services.appPasswords.create("alice", "phone"));
    await t.services.sessions.start("alice");
    const result = await occ(["user:delete", "alice"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'The user "alice" was deleted\n');
    assert.equal(await t.services.users.find("alice"), undefined);
    assert.equal(await t.services.appPasswords.resolve(secret), undefined);
    const again = await occ(["user:delete", "alice"]);
    assert.equal(again.code, 1);
    assertOneLineError(again.stderr, /"alice" does not exist/);
  });

  it("activity:publish reads the event from standard input, writes one row per affected user and prints the ids", async () => {
    accepted(await t.services.users.create({ uid: "pipe1" }));
    accepted(await t.services.users.create({ uid: "pipe2" }));
    const event = {
      app: "files",
      type: "file_created",
      affectedusers: ["pipe1", "pipe2"],
      user: "pipe1",
      subject: "created_self",
      subjectparams: [{ type: "file", value: "/piped.txt", id: 7 }],
    };
    const result = await occ(["activity:publish"], {}, `${JSON.stringify(event)}\n`);
    assert.equal(result.code, 0, result.stderr);
    const ids = result.stdout.trim().split(/\s+/).map(Number);
    assert.equal(ids.length, 2);
    assert.ok(
      ids.every((id) => Number.isSafeInteger(id) && id > 0),
      result.stdout,
    );
    assert.equal(await t.services.activity.store.countForUser("pipe1"), 1);
    assert.equal(await t.services.activity.store.countForUser("pipe2"), 1);

    const broken = await occ(["activity:publish"], {}, "{ not json");
    assert.equal(broken.code, 1);
    assert.equal(broken.stderr.trim().split("\n").length, 1, broken.stderr);
    assert.equal(await t.services.activity.store.countForUser("pipe1"), 1, "nothing written");
  });

  it("migrate on an up-to-date database applies nothing", async () => {
    const result = await occ(["migrate"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "Nothing to migrate: the database is up to date.\n");
  });

  it("works beside a running server on the same database: no locking errors", async () => {
    // The in-process app keeps writing (logins: sessions and throttle rows) while occ writes too.
    const logins = (async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const ok = await new FormClient(t.app, `192.0.2.${i}`).login("root", "root password");
        statuses.push(ok.statusCode);
      }
      return statuses;
    })();
    const commands = (async () => {
      const results = [];
      for (let i = 0; i < 5; i++) {
        results.push(await occ(["user:add", `busy${i}`, "--password-from-env"], { OC_PASS: "busy password" }));
        results.push(await occ(["user:add-app-password", "root"]));
      }
      return results;
    })();
    const [statuses, results] = await Promise.all([logins, commands]);
    assert.deepEqual(new Set(statuses), new Set([303]));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    assert.equal((await t.services.users.list()).filter((u) => u.uid.startsWith("busy")).length, 5);
  });
});

describe("./occ on a fresh data directory", () => {
  it("migrate creates the schema; commands work without a prior server start", async () => {
    const { createTestStorage } = await import("../support/storage.js");
    const storage = await createTestStorage({ migrate: false });
    try {
      const migrate = await runOcc(["migrate"], storage);
      assert.equal(migrate.code, 0, migrate.stderr);
      assert.match(migrate.stdout, /^Applied: 2026_11_21_0001_accounts/);
      const list = await runOcc(["user:list", "--output=json"], storage);
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(JSON.parse(list.stdout), {});
    } finally {
      await storage.cleanup();
    }
  });
});
