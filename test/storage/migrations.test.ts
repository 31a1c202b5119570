import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { type Kysely, Migrator, sql } from "kysely";
import { TOKEN_THROTTLE } from "../../src/security/domain/throttle-policy.js";
import { openStorage } from "../../src/storage/driver/connect.js";
import type { Database } from "../../src/storage/driver/database.js";
import { hasPendingMigrations, migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { allMigrations } from "../../src/storage/migrations/index.js";
import { KyselyGrantStore } from "../../src/storage/stores/oauth/oauth-grant-store.js";
import { IssueSettlement } from "../../src/storage/stores/oauth/token-gate.js";
import { SqlThrottleStore } from "../../src/storage/stores/security/throttle-store.js";
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

  it("0006 (token rowids) keeps every token, link and grace pair; SQLite then stops writing sqlite_sequence for tokens", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const migrations = allMigrations(t.storage.dialect);
      const migrator = new Migrator({ db: t.storage.db, provider: { getMigrations: async () => migrations } });
      const before = await migrator.migrateTo("2026_11_21_0005_token_write_indexes");
      assert.equal(before.error, undefined);
      const db = t.storage.db;
      const grantId = await seedGrant(db);
      const accessIds: number[] = [];
      for (const n of [1, 2, 3]) {
        const row = await db
          .insertInto("oauth2_access_tokens")
          .values({ token_hash: String(n).repeat(64), grant_id: grantId, created_at: n, expires_at: 3600 + n })
          .returning("id")
          .executeTakeFirstOrThrow();
        accessIds.push(Number(row.id));
      }
      const refresh = async (n: number, accessTokenId: number | null) =>
        Number(
          (
            await db
              .insertInto("oauth2_refresh_tokens")
              .values({
                token_hash: `r${n}`.padEnd(64, "0"),
                grant_id: grantId,
                access_token_id: accessTokenId,
                created_at: n,
                expires_at: 9999,
                rotated_at: n === 1 ? 5 : null,
              })
              .returning("id")
              .executeTakeFirstOrThrow()
          ).id,
        );
      const rotated = await refresh(1, accessIds[0]!);
      const successor = await refresh(2, accessIds[1]!);
      await db
        .insertInto("oauth2_refresh_grace")
        .values({ refresh_token_id: rotated, successor_id: successor, sealed_pair: "sealed", expires_at: 60 })
        .execute();

      // 0006 and whatever later migrations exist (issue 16 added 0007 onwards), in order.
      const names = Object.keys(migrations);
      assert.deepEqual((await migrateToLatest(t.storage)).applied, names.slice(names.indexOf("2026_11_21_0006_token_rowids")));
      assert.equal(names.indexOf("2026_11_21_0006_token_rowids"), 5);

      const access = await db.selectFrom("oauth2_access_tokens").selectAll().orderBy("id").execute();
      assert.deepEqual(
        access.map((a) => [Number(a.id), a.token_hash, Number(a.grant_id), Number(a.created_at), Number(a.expires_at)]),
        accessIds.map((id, i) => [id, String(i + 1).repeat(64), grantId, i + 1, 3601 + i]),
      );
      const refreshRows = await db.selectFrom("oauth2_refresh_tokens").selectAll().orderBy("id").execute();
      assert.deepEqual(
        refreshRows.map((r) => [Number(r.id), Number(r.access_token_id), r.rotated_at === null ? null : Number(r.rotated_at)]),
        [
          [rotated, accessIds[0], 5],
          [successor, accessIds[1], null],
        ],
      );
      const grace = await db.selectFrom("oauth2_refresh_grace").selectAll().execute();
      assert.deepEqual(
        grace.map((g) => [Number(g.refresh_token_id), Number(g.successor_id), g.sealed_pair]),
        [[rotated, successor, "sealed"]],
      );

      // The foreign keys still act on the rebuilt tables: deleting an access token clears its
      // refresh token's link; deleting the successor removes the grace pair.
      await db.deleteFrom("oauth2_access_tokens").where("id", "=", accessIds[0]!).execute();
      const link = await db
        .selectFrom("oauth2_refresh_tokens")
        .select("access_token_id")
        .where("id", "=", rotated)
        .executeTakeFirstOrThrow();
      assert.equal(link.access_token_id, null);
      await db.deleteFrom("oauth2_refresh_tokens").where("id", "=", successor).execute();
      assert.equal((await db.selectFrom("oauth2_refresh_grace").selectAll().execute()).length, 0);
      await assert.rejects(
        db
          .insertInto("oauth2_access_tokens")
          .values({ token_hash: "f".repeat(64), grant_id: 999_999, created_at: 1, expires_at: 2 })
          .execute(),
        /foreign key/i,
      );
      // A new token is numbered after the newest one (on PostgreSQL the refused insert above used up
      // a sequence value, so only "after" holds there).
      const next = await db
        .insertInto("oauth2_access_tokens")
        .values({ token_hash: "e".repeat(64), grant_id: grantId, created_at: 9, expires_at: 10 })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (t.storage.dialect === "sqlite") assert.equal(Number(next.id), accessIds[2]! + 1);
      else assert.ok(Number(next.id) > accessIds[2]!);

      if (t.storage.dialect === "sqlite") {
        const definitions = await sql<{ name: string; sql: string }>`
          select name, sql from sqlite_schema where name in ('oauth2_access_tokens', 'oauth2_refresh_tokens')`.execute(db);
        assert.equal(definitions.rows.length, 2);
        for (const table of definitions.rows) assert.doesNotMatch(table.sql, /autoincrement/i, table.name);
        const sequences = await sql<{ name: string }>`select name from sqlite_sequence`.execute(db);
        const names = sequences.rows.map((r) => r.name);
        assert.ok(!names.includes("oauth2_access_tokens") && !names.includes("oauth2_refresh_tokens"), names.join());
        assert.ok(names.includes("oauth2_grants"), "grants keep AUTOINCREMENT");
        const indexes = await sql<{ name: string }>`
          select name from sqlite_schema where type = 'index' and tbl_name like 'oauth2_%' and sql is not null order by name`.execute(
          db,
        );
        for (const name of [
          "oauth2_access_tokens_grant",
          "oauth2_refresh_grace_expires",
          "oauth2_refresh_grace_successor",
          "oauth2_refresh_tokens_access",
          "oauth2_refresh_tokens_grant",
        ]) {
          assert.ok(
            indexes.rows.some((r) => r.name === name),
            name,
          );
        }
        const check = await sql<{ foreign_key_check: unknown }>`pragma foreign_key_check`.execute(db);
        assert.deepEqual(check.rows, []);
      }
    } finally {
      await t.cleanup();
    }
  });

  it("refuses a database URL that is not PostgreSQL", () => {
    assert.throws(() => openStorage({ databaseUrl: "mysql://x@localhost/db", dataDir: "/nonexistent" }), /postgres:\/\//);
  });
});

describe(`migration 0007 (${testDatabaseDialect})`, () => {
  it("migration 0007 keeps the codes already stored, with no redirect URI (the token endpoint refuses them)", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const migrations = allMigrations(t.storage.dialect);
      const migrator = new Migrator({ db: t.storage.db, provider: { getMigrations: async () => migrations } });
      assert.equal((await migrator.migrateTo("2026_11_21_0006_token_rowids")).error, undefined);
      const db = t.storage.db;
      const grantId = await seedGrant(db);
      // Written as the code table was before 0007 (no redirect_uri column yet).
      await sql`insert into oauth2_codes (code_hash, grant_id, code_challenge, code_challenge_method, created_at, expires_at, consumed_at)
        values (${"k".repeat(64)}, ${grantId}, null, null, 0, 600, null)`.execute(db);
      // To the latest schema (not just 0007): the store below reads columns later migrations add.
      assert.equal((await migrator.migrateToLatest()).error, undefined);
      const settlement = new IssueSettlement(new SqlThrottleStore(db, TOKEN_THROTTLE));
      const code = await new KyselyGrantStore(db, t.storage.dialect, settlement).findCode("k".repeat(64));
      assert.equal(code?.grantId, grantId);
      assert.equal(code?.redirectUri, null);
    } finally {
      await t.cleanup();
    }
  });
});

/** A user, a client and one grant between them (the rows the token tables point at). */
async function seedGrant(db: Kysely<Database>): Promise<number> {
  await db
    .insertInto("users")
    .values({ uid: "alice", display_name: "Alice", email: null, password_hash: null, enabled: 1, created_at: 0 })
    .execute();
  const client = await db
    .insertInto("oauth2_clients")
    .values({
      name: "c",
      client_id: "c".repeat(32),
      secret_encrypted: "x",
      redirect_uri: "https://c.example/cb",
      allow_subdomains: 0,
      trusted: 0,
      created_at: 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const grant = await db
    .insertInto("oauth2_grants")
    .values({ client_id: Number(client.id), uid: "alice", authorized_at: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(grant.id);
}
