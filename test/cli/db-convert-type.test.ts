import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { ManualClock } from "../../src/clock.js";
import { readEnvironment } from "../../src/config/environment.js";
import { openStorage, SQLITE_FILE } from "../../src/storage/driver/connect.js";
import { migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { fileEvent, publish } from "../activity/support.js";
import { addClient, loggedIn, PASSWORD, refresh, WEB_CLIENT } from "../oauth/support.js";
import { JWKS, openIdTokens, type TokenSet, verifyIdToken } from "../oidc/support.js";
import { createAppOn, type TestApp } from "../support/app.js";
import { FormClient } from "../support/browser-form.js";
import { COMPILED_MAIN, childEnvironment, runOcc, runProcess } from "../support/occ.js";
import { accepted } from "../support/results.js";

/**
 * `./occ db:convert-type pgsql …` (ownCloud's command) on a SQLite instance made through the real
 * services, into a fresh PostgreSQL database; and the start-up rule that refuses an empty
 * PostgreSQL database while the SQLite file holds the users. The source is SQLite in both CI runs;
 * the PostgreSQL server is KEYSTREAM_TEST_DATABASE_URL's, else the cluster of scripts/dev-postgres.sh
 * on KEYSTREAM_PG_PORT (.ci/run exports it for both runs).
 */
const ADMIN_URL =
  process.env.KEYSTREAM_TEST_DATABASE_URL ||
  (process.env.KEYSTREAM_PG_PORT ? `postgres://postgres@127.0.0.1:${process.env.KEYSTREAM_PG_PORT}/postgres` : undefined);
const SKIP = ADMIN_URL
  ? false
  : "needs a PostgreSQL server: set KEYSTREAM_TEST_DATABASE_URL, or KEYSTREAM_PG_PORT of scripts/dev-postgres.sh";
const ACTIVITY = "/ocs/v2.php/apps/activity/api/v2/activity/all?format=json";

interface Target {
  name: string;
  url: string;
  /** ownCloud's arguments naming it: pgsql USER HOST DATABASE --port PORT. */
  args: string[];
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
  drop(): Promise<void>;
}

async function freshDatabase(): Promise<Target> {
  const admin = new URL(ADMIN_URL as string);
  const name = `ks_convert_${randomBytes(5).toString("hex")}`;
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE ${name}`);
  await adminClient.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const args = ["pgsql", decodeURIComponent(admin.username), admin.hostname, name];
  if (admin.port) args.push("--port", admin.port);
  if (admin.password) args.push("--password", decodeURIComponent(admin.password));
  return {
    name,
    url: url.toString(),
    args,
    async query(text) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** What the source instance held, as its users and clients saw it. */
interface Before {
  dataDir: string;
  configFile: string;
  clock: ManualClock;
  tokens: Record<string, TokenSet>;
  appPassword: string;
  activity: unknown;
  jwks: { keys: Array<{ kid: string }> };
}

/** A SQLite instance populated through the real services and routes (users, OAuth, OIDC, activity). */
async function populatedSqliteInstance(): Promise<Before> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "keystream-convert-"));
  const dataDir = path.join(root, "data");
  const configFile = path.join(root, "keystream.json");
  fs.writeFileSync(configFile, `${JSON.stringify({ log_level: "warn" })}\n`, { mode: 0o600 });
  const storage = openStorage({ dataDir });
  await migrateToLatest(storage);
  const clock = new ManualClock();
  const node = await createAppOn(storage, dataDir, clock);
  const t = node as unknown as TestApp;
  try {
    const { users, appPasswords, preferences } = node.services;
    for (const uid of ["alice", "bob", "carol"]) {
      accepted(await users.create({ uid, password: PASSWORD, displayName: uid.toUpperCase(), email: `${uid}@example.com` }));
    }
    accepted(await users.delete("carol"));
    accepted(await preferences.set("alice", "activity", "notify_email_file_changed", "1"));
    await addClient(t, WEB_CLIENT);
    const tokens: Record<string, TokenSet> = {};
    for (const uid of ["alice", "bob"]) {
      tokens[uid] = await openIdTokens(t, await loggedIn(t, uid));
      await publish(t, [fileEvent(uid), fileEvent(uid, { subject: "created_self", type: "file_created" })]);
      clock.advance(60);
    }
    const { secret } = accepted(await appPasswords.create("alice", "laptop"));
    const appPassword = `Basic ${Buffer.from(`alice:${secret}`).toString("base64")}`;
    const activity = await node.app.inject({ method: "GET", url: ACTIVITY, headers: { authorization: appPassword } });
    assert.equal(activity.statusCode, 200);
    const jwks = (await node.app.inject({ method: "GET", url: JWKS })).json();
    return { dataDir, configFile, clock, tokens, appPassword, activity: activity.json(), jwks };
  } finally {
    await node.app.close();
    await storage.close();
  }
}

/** Every row of every table of the SQLite file, sorted, as comparable text. */
function sqliteContents(dataDir: string): Map<string, string[]> {
  const database = new SqliteDatabase(path.join(dataDir, SQLITE_FILE), { readonly: true });
  try {
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'kysely%'")
      .pluck()
      .all() as string[];
    return new Map(tables.map((table) => [table, rowsAsText(database.prepare(`SELECT * FROM "${table}"`).all())]));
  } finally {
    database.close();
  }
}

function rowsAsText(rows: unknown[]): string[] {
  return rows
    .map((row) =>
      JSON.stringify(
        Object.entries(row as Record<string, unknown>)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, value]) => [
            key,
            Buffer.isBuffer(value)
              ? value.toString("hex")
              : typeof value === "string" && /^\d+$/.test(value)
                ? Number(value)
                : value,
          ]),
      ),
    )
    .sort();
}

function occ(args: string[], source: Pick<Before, "dataDir" | "configFile">, extra: Record<string, string> = {}) {
  return runOcc(
    ["db:convert-type", ...args],
    { dataDir: source.dataDir, databaseUrl: undefined },
    {
      KEYSTREAM_CONFIG: source.configFile,
      ...extra,
    },
  );
}

async function relationsOf(target: Target): Promise<string[]> {
  const rows = await target.query<{ relname: string }>(
    "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'S', 'v')",
  );
  return rows.map((row) => row.relname).sort();
}

describe("occ db:convert-type: a SQLite instance moves into PostgreSQL", { skip: SKIP }, () => {
  let source: Before;
  let target: Target;
  let stderr: string;
  let stdout: string;

  before(async () => {
    source = await populatedSqliteInstance();
    target = await freshDatabase();
    const result = await occ(target.args, source);
    stdout = result.stdout;
    stderr = result.stderr;
    assert.equal(result.code, 0, result.stderr);
  });
  after(async () => {
    await target?.drop();
  });

  it("copies every table of the SQLite schema, row for row, and reports each on stderr", async () => {
    const contents = sqliteContents(source.dataDir);
    assert.ok(contents.size >= 20, `tables: ${[...contents.keys()]}`);
    for (const [table, rows] of contents) {
      assert.match(stderr, new RegExp(`^${table}: ${rows.length}/${rows.length} rows$`, "m"), `progress of ${table}`);
      const copied = rowsAsText(await target.query(`SELECT * FROM "${table}"`));
      assert.deepEqual(copied, rows, `rows of ${table}`);
    }
    assert.match(stderr, /^verified: \d+ tables, \d+ rows$/m);
    assert.match(stdout, /Restart Keystream/);
  });

  it("switches the configuration file to the database, owner-only, other keys kept", () => {
    const written = JSON.parse(fs.readFileSync(source.configFile, "utf8"));
    assert.equal(written.log_level, "warn");
    const environment = readEnvironment({ KEYSTREAM_CONFIG: source.configFile, KEYSTREAM_DATA_DIR: source.dataDir });
    assert.equal(new URL(environment.databaseUrl as string).pathname, `/${target.name}`);
    assert.equal(fs.statSync(source.configFile).mode & 0o777, 0o600);
  });

  it("after the move every user logs in, every refresh token refreshes, app passwords, the activity stream and the OIDC key are the same", async () => {
    const environment = readEnvironment({ KEYSTREAM_CONFIG: source.configFile, KEYSTREAM_DATA_DIR: source.dataDir });
    const storage = openStorage({ databaseUrl: environment.databaseUrl, dataDir: source.dataDir });
    const node = await createAppOn(storage, source.dataDir, new ManualClock(source.clock.nowSeconds()));
    const t = node as unknown as TestApp;
    try {
      assert.equal(storage.dialect, "postgres");
      for (const uid of ["alice", "bob"]) {
        const login = await new FormClient(node.app).login(uid, PASSWORD);
        assert.equal(login.statusCode, 303, `${uid} logs in`);
        // An ID token signed before the move verifies against the JWKS after it.
        const claims = await verifyIdToken(t, source.tokens[uid]?.id_token);
        assert.equal(claims.sub, uid);
        const refreshed = await refresh(t, source.tokens[uid]?.refresh_token as string);
        assert.equal(refreshed.statusCode, 200, `${uid}'s refresh token: ${refreshed.body}`);
      }
      const jwks = (await node.app.inject({ method: "GET", url: JWKS })).json();
      assert.deepEqual(jwks, source.jwks);
      const activity = await node.app.inject({ method: "GET", url: ACTIVITY, headers: { authorization: source.appPassword } });
      assert.equal(activity.statusCode, 200, "the app password still works");
      assert.deepEqual(activity.json(), source.activity, "same activities: ids, order, content");
      // New rows get ids past the copied ones (the sequences were moved on).
      const [added] = await publish(t, [fileEvent("bob")]);
      const ids = (source.activity as { ocs: { data: Array<{ activity_id: number }> } }).ocs.data.map((a) => a.activity_id);
      assert.ok((added as number) > Math.max(...ids));
      const { appPassword } = accepted(await node.services.appPasswords.create("bob", "phone"));
      assert.ok(appPassword.id > 1);
    } finally {
      await node.app.close();
      await storage.close();
    }
  });

  it("a target that is not empty is refused, and nothing changes on it or in the configuration", async () => {
    const configBefore = fs.readFileSync(source.configFile);
    const again = await occ(target.args, source);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /^nothing converted: the target database is not empty \(.*\); give an empty database, or --clear-schema to drop them$/m,
    );
    assert.deepEqual(fs.readFileSync(source.configFile), configBefore);
    assert.equal((await target.query<{ n: number }>("SELECT count(*)::int AS n FROM users"))[0]?.n, 2);
  });
});

describe("occ db:convert-type: a failure leaves the target empty and the configuration as it was", { skip: SKIP }, () => {
  it("a value PostgreSQL refuses, met after other tables were copied, rolls everything back", async () => {
    const source = await populatedSqliteInstance();
    const target = await freshDatabase();
    try {
      // SQLite stores a NUL character in text; PostgreSQL refuses it. user_preferences is copied late.
      const database = new SqliteDatabase(path.join(source.dataDir, SQLITE_FILE));
      database.prepare("UPDATE user_preferences SET config_value = ? WHERE uid = 'alice'").run("a\u0000b");
      database.close();
      const configBefore = fs.readFileSync(source.configFile);
      const result = await occ(target.args, source);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^users: 2\/2 rows$/m, "tables before it were copied");
      assert.equal(result.stderr.trimEnd().split("\n").at(-1)?.startsWith("error: "), true, result.stderr);
      assert.deepEqual(await relationsOf(target), [], "the target is left empty");
      assert.deepEqual(fs.readFileSync(source.configFile), configBefore, "the configuration is unchanged");
      assert.deepEqual(
        fs.readdirSync(path.dirname(source.configFile)).filter((f) => f.endsWith(".tmp")),
        [],
        "no prepared file left",
      );
    } finally {
      await target.drop();
    }
  });

  it("--clear-schema replaces what the target held, and a failure then puts it back", async () => {
    const source = await populatedSqliteInstance();
    const target = await freshDatabase();
    try {
      await target.query("CREATE TABLE leftover (x int); INSERT INTO leftover VALUES (7)");
      const database = new SqliteDatabase(path.join(source.dataDir, SQLITE_FILE));
      database.prepare("UPDATE user_preferences SET config_value = ? WHERE uid = 'alice'").run("a\u0000b");
      database.close();
      const failed = await occ([...target.args, "--clear-schema"], source);
      assert.equal(failed.code, 1);
      assert.deepEqual(await relationsOf(target), ["leftover"]);
      assert.deepEqual(await target.query("SELECT x FROM leftover"), [{ x: 7 }]);
    } finally {
      await target.drop();
    }
  });
});

describe("an empty PostgreSQL database beside a SQLite file with users is refused", { skip: SKIP }, () => {
  it("the server and occ refuse to start, naming ./occ db:convert-type; renaming the SQLite file starts empty on purpose", async () => {
    const source = await populatedSqliteInstance();
    const target = await freshDatabase();
    try {
      const env = childEnvironment({ dataDir: source.dataDir, databaseUrl: target.url }, { PORT: "0" });
      const server = await runProcess(process.execPath, [COMPILED_MAIN], env);
      assert.equal(server.code, 1);
      // The command as the operator types it: this database's user, host, name and port, no password.
      const password = target.args.indexOf("--password");
      const command = `./occ db:convert-type ${(password < 0 ? target.args : target.args.slice(0, password)).join(" ")}`;
      assert.match(server.stderr, /has no users, but .*keystream\.sqlite holds 2: move them with /);
      assert.ok(server.stderr.includes(`${command}, or rename that file`), server.stderr);
      assert.equal(server.stderr.trimEnd().split("\n").length, 1, server.stderr);
      assert.deepEqual(await relationsOf(target), [], "nothing was created on the target");
      const listed = await runOcc(["user:list"], { dataDir: source.dataDir, databaseUrl: target.url });
      assert.equal(listed.code, 1);
      assert.equal(listed.stderr.trimEnd().split("\n").length, 1, listed.stderr);
      assert.match(listed.stderr, /rename that file to start with an empty database on purpose/);
      fs.renameSync(path.join(source.dataDir, SQLITE_FILE), path.join(source.dataDir, "keystream.sqlite.old"));
      const migrated = await runOcc(["migrate"], { dataDir: source.dataDir, databaseUrl: target.url });
      assert.equal(migrated.code, 0, migrated.stderr);
    } finally {
      await target.drop();
    }
  });
});
