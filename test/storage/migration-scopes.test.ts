import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Migrator, sql } from "kysely";
import { DEFAULT_CLIENTS } from "../../src/oauth/domain/default-clients.js";
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
