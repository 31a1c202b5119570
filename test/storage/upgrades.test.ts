import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Migrator, sql } from "kysely";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
import { DatabaseNewerThanRelease, migrateToLatest } from "../../src/storage/lifecycle/migrate.js";
import { allMigrations } from "../../src/storage/migrations/index.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

describe(`migration 0016, scopes (${testDatabaseDialect})`, () => {
  it("grants recorded before scopes keep full access: each gets the account scope, beside what it had", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const migrations = allMigrations(t.storage.dialect);
      const migrator = new Migrator({ db: t.storage.db, provider: { getMigrations: async () => migrations } });
      assert.equal((await migrator.migrateTo("2026_11_24_0015_session_details")).error, undefined);
      const db = t.storage.db;
      await sql`insert into users (uid, display_name, email, password_hash, enabled, is_admin, created_at)
        values ('alice', 'Alice', null, null, 1, 0, 0)`.execute(db);
      const clients: Array<[string, string]> = [
        ["mine", "m".repeat(32)],
        ["Desktop Client", (DEFAULT_CLIENTS[0] as { clientId: string }).clientId],
      ];
      for (const [name, clientId] of clients) {
        await sql`insert into oauth2_clients (name, client_id, secret_encrypted, redirect_uri, allow_subdomains, trusted, created_at)
          values (${name}, ${clientId}, 'x', 'https://c.example/cb', 0, 1, 0)`.execute(db);
      }
      const mine = await db.selectFrom("oauth2_clients").select("id").where("name", "=", "mine").executeTakeFirstOrThrow();
      for (const scope of [null, "", "openid profile email"]) {
        await sql`insert into oauth2_grants (client_id, uid, authorized_at, scope) values (${mine.id}, 'alice', 0, ${scope})`.execute(
          db,
        );
      }

      assert.equal((await migrator.migrateToLatest()).error, undefined);

      const grants = await db.selectFrom("oauth2_grants").select("scope").orderBy("id").execute();
      assert.deepEqual(
        grants.map((g) => g.scope),
        ["account", "account", "openid profile email account"],
      );
      const migrated = await db
        .selectFrom("oauth2_clients")
        .select(["name", "account_access", "trusted_scopes"])
        .orderBy("name")
        .execute();
      assert.deepEqual(
        migrated.map((c) => [c.name, Number(c.account_access), c.trusted_scopes]),
        [
          ["Desktop Client", 1, null],
          ["mine", 0, null],
        ],
        "ownCloud's desktop client keeps full access; a trusted client stays trusted for every scope",
      );
    } finally {
      await t.cleanup();
    }
  });
});

describe(`a database newer than this release (${testDatabaseDialect})`, () => {
  it("a database migrated by a newer release stops this one with one line naming the migration, the version and the rollback", async () => {
    const t = await createTestStorage();
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('2099_01_01_0001_future', '2099-01-01T00:00:00.000Z')`.execute(
        t.storage.db,
      );
      await assert.rejects(migrateToLatest(t.storage), (error: unknown) => {
        assert.ok(error instanceof DatabaseNewerThanRelease);
        assert.match(error.message, /migrated by a newer Keystream release: it has migration 2099_01_01_0001_future/);
        assert.match(error.message, /which Keystream \d+\.\d+\.\d+ does not know/);
        assert.match(
          error.message,
          /restore the backup taken before the upgrade \(docs\/deployment\.md "Rolling back a release"\)/,
        );
        assert.equal(error.message.includes("\n"), false, "one line");
        return true;
      });
    } finally {
      await t.cleanup();
    }
  });
});
