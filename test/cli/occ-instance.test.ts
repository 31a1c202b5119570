import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { Migrator } from "kysely";
import { hasPendingMigrations, isInstalled } from "../../src/storage/lifecycle/migrate.js";
import { allMigrations } from "../../src/storage/migrations/index.js";
import { runOccInProcess } from "../support/occ.js";
import { createTestStorage } from "../support/storage.js";
import { commandTree, emptyDirectory, treeOf } from "./support.js";

/** Commands that add something: they may start a new instance (and say so). */
const INSTANCE_CREATORS = new Set([
  "user:add",
  "group:add",
  "oauth2:add-client",
  "config:system:set",
  "twofactorauth:enforce",
  "maintenance:mode",
  "activity:publish",
  "migrate",
]);
/** Commands that never open an instance. */
const NO_INSTANCE = new Set(["list", "completion", "serve"]);

/** Arguments for every other command: each must refuse to work where no instance is. */
function instanceCommandArguments(avatarFile: string): Record<string, string[]> {
  return {
    "user:list": [],
    "user:info": ["nobody"],
    "user:delete": ["nobody"],
    "user:disable": ["nobody"],
    "user:enable": ["nobody"],
    "user:resetpassword": ["nobody", "--password-from-env"],
    "user:add-app-password": ["nobody"],
    "user:setting": ["nobody", "core", "lang"],
    "user:modify": ["nobody", "email", "nobody@example.com"],
    "user:set-avatar": ["nobody", avatarFile],
    "user:remove-avatar": ["nobody"],
    "group:delete": ["nobody"],
    "group:list": [],
    "group:list-members": ["admin"],
    "group:add-member": ["admin", "--member=nobody"],
    "group:remove-member": ["admin", "--member=nobody"],
    "config:list": [],
    "config:system:get": ["maintenance"],
    "config:system:delete": ["maintenance"],
    status: [],
    "oauth2:list-clients": [],
    "oauth2:modify-client": ["Some app", "name", "Other app"],
    "oauth2:remove-client": ["nobody"],
    "oauth2:cleanup": [],
    "oidc:rotate-key": [],
    "activity:expire": [],
    "activity:import-file-log": ["/dev/null"],
    "security:bruteforce:attempts": ["192.0.2.1"],
    "security:bruteforce:reset": ["192.0.2.1"],
    "security:audit": [],
    "twofactorauth:state": ["nobody"],
    "twofactorauth:disable": ["nobody", "totp"],
    "notification:generate": ["nobody", "Hello"],
    "db:convert-type": ["pgsql", "nobody", "127.0.0.1", "nowhere"],
  };
}

const migrationNames = (dialect: "sqlite" | "postgres") => Object.keys(allMigrations(dialect)).sort();

describe("./occ and the instance it opens", () => {
  let scratch: string;
  let avatarFile: string;
  const savedPassword = process.env.OC_PASS;

  before(() => {
    scratch = emptyDirectory();
    avatarFile = path.join(scratch, "avatar.png");
    fs.writeFileSync(avatarFile, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    process.env.OC_PASS = "a long enough password";
  });
  after(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
    if (savedPassword === undefined) delete process.env.OC_PASS;
    else process.env.OC_PASS = savedPassword;
  });

  it("a command that needs an instance, on an empty data directory: exit 1, names it, creates nothing", async () => {
    const dataDir = emptyDirectory();
    const missingDir = path.join(dataDir, "not-there");
    const commands = instanceCommandArguments(avatarFile);
    try {
      for (const command of commandTree().commands) {
        const name = command.name();
        if (INSTANCE_CREATORS.has(name) || NO_INSTANCE.has(name)) continue;
        const args = commands[name];
        assert.ok(args, `test/cli/occ-instance.test.ts: give ${name} arguments (or list it as a creator)`);
        for (const dir of [dataDir, missingDir]) {
          const result = await runOccInProcess([name, ...args], { dataDir: dir, databaseUrl: undefined });
          assert.equal(result.code, 1, `${name}: ${result.err}`);
          assert.match(result.err, new RegExp(`^no Keystream instance in ${dir} .*KEYSTREAM_DATA_DIR`), name);
          assert.equal(result.out, "", name);
        }
      }
      assert.deepEqual(treeOf(dataDir), [], "nothing written in the data directory");
      assert.equal(fs.existsSync(missingDir), false, "no data directory made");
      // ownCloud's maintenance:mode without an option only reads.
      const state = await runOccInProcess(["maintenance:mode"], { dataDir, databaseUrl: undefined });
      assert.equal(state.code, 1);
      assert.deepEqual(treeOf(dataDir), []);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("a command that needs an instance, on a database without Keystream's schema: exit 1, nothing created", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      for (const argv of [["user:list"], ["status"], ["config:list"], ["oauth2:list-clients"]]) {
        const result = await runOccInProcess(argv, t);
        assert.equal(result.code, 1, `${argv[0]}: ${result.err}`);
        assert.match(result.err, /^no Keystream instance in /);
      }
      assert.equal(await isInstalled(t.storage), false);
      assert.deepEqual(await t.storage.db.introspection.getTables({ withInternalKyselyTables: true }), []);
    } finally {
      await t.cleanup();
    }
  });

  it("a command that adds something to an empty place creates the instance and says which on stderr", async () => {
    const t = await createTestStorage({ migrate: false });
    const dataDir = emptyDirectory();
    const place = { dataDir, databaseUrl: t.databaseUrl };
    try {
      const result = await runOccInProcess(["user:add", "first"], place);
      assert.equal(result.code, 0, result.err);
      assert.match(result.out, /^The user "first" was created successfully\n/);
      const database = t.databaseUrl ? t.storage.describe : `sqlite:${path.join(dataDir, "keystream.sqlite")}`;
      assert.match(
        result.err,
        new RegExp(`^created a new Keystream instance: data directory ${dataDir}, database ${database}$`, "m"),
      );
      const again = await runOccInProcess(["user:add", "second"], place);
      assert.equal(again.code, 0, again.err);
      assert.equal(again.err, "", "an existing instance is not announced");
      assert.deepEqual(JSON.parse((await runOccInProcess(["user:list", "--output=json"], place)).out), {
        first: { displayName: "first" },
        second: { displayName: "second" },
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await t.cleanup();
    }
  });

  it("migrate announces each migration on stderr as it runs; stdout keeps its summary", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const result = await runOccInProcess(["migrate"], t);
      assert.equal(result.code, 0, result.err);
      const names = migrationNames(t.storage.dialect);
      assert.equal(result.out, `Applied: ${names.join(", ")}\n`);
      const progress = result.err.split("\n").filter((line) => line.startsWith("migrating: "));
      assert.deepEqual(
        progress,
        names.map((name, index) => `migrating: ${name} (${index + 1}/${names.length})`),
      );
      const json = await runOccInProcess(["migrate", "--output=json"], t);
      assert.deepEqual(JSON.parse(json.out), { applied: [] });
      assert.equal(json.err, "");
    } finally {
      await t.cleanup();
    }
  });

  it("status reports the pending migrations without applying them; a later command applies them with progress", async () => {
    const t = await createTestStorage({ migrate: false });
    const names = migrationNames(t.storage.dialect);
    try {
      const migrator = new Migrator({
        db: t.storage.db,
        provider: { getMigrations: async () => allMigrations(t.storage.dialect) },
      });
      const { error } = await migrator.migrateTo(names[1] as string);
      assert.equal(error, undefined);
      const status = await runOccInProcess(["status", "--output=json"], t);
      assert.equal(status.code, 0, status.err);
      assert.deepEqual(JSON.parse(status.out).pending_migrations, names.slice(2));
      assert.equal(await hasPendingMigrations(t.storage), true, "status applied nothing");
      const list = await runOccInProcess(["user:list"], t);
      assert.equal(list.code, 0, list.err);
      assert.match(list.err, new RegExp(`^migrating: ${names[2]} \\(1/${names.length - 2}\\)$`, "m"));
      assert.equal(await hasPendingMigrations(t.storage), false);
    } finally {
      await t.cleanup();
    }
  });

  it("oauth2:cleanup and activity:expire report progress on stderr; stdout keeps its sentence", async () => {
    const t = await createTestStorage();
    try {
      const cleanup = await runOccInProcess(["oauth2:cleanup"], t);
      assert.equal(cleanup.code, 0, cleanup.err);
      assert.equal(
        cleanup.out,
        "Deleted 0 device authorizations, 0 authorization codes, 0 access tokens, 0 refresh tokens and 0 empty grants.\n",
      );
      assert.deepEqual(cleanup.err.trimEnd().split("\n"), [
        "oauth2:cleanup: device authorizations: 0 deleted",
        "oauth2:cleanup: authorization codes: 0 deleted",
        "oauth2:cleanup: refresh tokens: 0 deleted",
        "oauth2:cleanup: access tokens: 0 deleted",
        "oauth2:cleanup: empty grants: 0 deleted",
      ]);
      const expire = await runOccInProcess(["activity:expire"], t);
      assert.equal(expire.code, 0, expire.err);
      assert.equal(expire.out, "Deleted 0 activities older than 365 days\n");
      assert.equal(expire.err, "activity:expire: deleting activities older than 365 days…\n");
    } finally {
      await t.cleanup();
    }
  });
});
