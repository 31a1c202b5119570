import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { openStorage } from "../../src/storage/connect.js";
import { hasPendingMigrations, migrateToLatest } from "../../src/storage/migrate.js";
import { allMigrations } from "../../src/storage/migrations/index.js";
import { runOcc } from "../support/occ.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

const onlySqlite = testDatabaseDialect === "sqlite" ? false : "SQLite-only behaviour (this run is on PostgreSQL)";

describe("storage: migrations", () => {
  it("applies every migration once on a fresh database; a second run applies nothing", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      assert.equal(await hasPendingMigrations(t.storage), true);
      const first = await migrateToLatest(t.storage);
      assert.deepEqual(first.applied, Object.keys(allMigrations(t.storage.dialect)));
      assert.ok(first.applied.length > 0);
      assert.equal(await hasPendingMigrations(t.storage), false);
      const second = await migrateToLatest(t.storage);
      assert.deepEqual(second.applied, []);
      // The schema is really there: the accounts tables answer queries.
      for (const table of ["users", "app_passwords", "sessions", "throttle", "job_leases"] as const) {
        const row = await t.storage.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        assert.equal(Number(row.n), 0, table);
      }
    } finally {
      await t.cleanup();
    }
  });

  it("a second node opening the same database sees it migrated (nothing re-applied)", async () => {
    const t = await createTestStorage();
    const other = openStorage({ databaseUrl: t.databaseUrl, dataDir: t.dataDir });
    try {
      assert.equal(await hasPendingMigrations(other), false);
      assert.deepEqual((await migrateToLatest(other)).applied, []);
    } finally {
      await other.close();
      await t.cleanup();
    }
  });

  it("two nodes in one process migrating the same fresh database at once apply each migration once", {
    skip: testDatabaseDialect === "postgres" ? false : "one process never opens two SQLite connections; see the process test",
  }, async () => {
    const t = await createTestStorage({ migrate: false });
    const other = openStorage({ databaseUrl: t.databaseUrl, dataDir: t.dataDir });
    try {
      const [a, b] = await Promise.all([migrateToLatest(t.storage), migrateToLatest(other)]);
      assert.deepEqual([...a.applied, ...b.applied].sort(), Object.keys(allMigrations(t.storage.dialect)).sort());
    } finally {
      await other.close();
      await t.cleanup();
    }
  });

  it("four `./occ migrate` processes started at once on a fresh database: all succeed, one applies", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const results = await Promise.all([1, 2, 3, 4].map(() => runOcc(["migrate"], t)));
      for (const r of results) assert.equal(r.code, 0, r.stderr);
      const appliers = results.filter((r) => r.stdout.startsWith("Applied: "));
      assert.equal(appliers.length, 1, results.map((r) => r.stdout + r.stderr).join("\n"));
      assert.equal(results.filter((r) => /Nothing to migrate/.test(r.stdout)).length, 3);
      assert.equal(await hasPendingMigrations(t.storage), false);
    } finally {
      await t.cleanup();
    }
  });

  it("SQLite: the file lives in the data directory, in WAL mode, with foreign keys enforced", { skip: onlySqlite }, async () => {
    const t = await createTestStorage();
    try {
      assert.equal(t.storage.dialect, "sqlite");
      assert.ok(fs.existsSync(path.join(t.dataDir, "keystream.sqlite")));
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(t.storage.db);
      assert.equal(mode.rows[0]?.journal_mode, "wal");
      const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(t.storage.db);
      assert.equal(fk.rows[0]?.foreign_keys, 1);
      await assert.rejects(
        t.storage.db
          .insertInto("app_passwords")
          .values({ uid: "nobody", name: "x", token_hash: "0".repeat(64), created_at: 1, last_used_at: null })
          .execute(),
        /FOREIGN KEY/,
      );
    } finally {
      await t.cleanup();
    }
  });

  it("PostgreSQL: a row referencing a missing user is refused", {
    skip: testDatabaseDialect === "postgres" ? false : "PostgreSQL run only",
  }, async () => {
    const t = await createTestStorage();
    try {
      assert.equal(t.storage.dialect, "postgres");
      await assert.rejects(
        t.storage.db
          .insertInto("app_passwords")
          .values({ uid: "nobody", name: "x", token_hash: "0".repeat(64), created_at: 1, last_used_at: null })
          .execute(),
        /foreign key/,
      );
    } finally {
      await t.cleanup();
    }
  });

  it("refuses a database URL that is not PostgreSQL", () => {
    assert.throws(() => openStorage({ databaseUrl: "mysql://x@localhost/db", dataDir: "/nonexistent" }), /postgres:\/\//);
  });
});
