import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Migrator } from "kysely";
import { UserDirectory } from "../../src/accounts/users.js";
import { ManualClock } from "../../src/clock.js";
import { allMigrations } from "../../src/storage/migrations/index.js";
import { SqlSessionStore } from "../../src/storage/stores/accounts/account-session-store.js";
import { SqlUserStore } from "../../src/storage/stores/accounts/account-user-store.js";
import { SqlLoginFlowStore } from "../../src/storage/stores/login-flow/login-flow-store.js";
import { accepted, assertRefused } from "../support/results.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

const IDENTITY = "2026_11_27_0017_identity";

/**
 * Migration 2026_11_27_0017 on a database written before it: nothing is rewritten or dropped,
 * addresses several accounts shared stay with each of them, and the one-address rule applies from
 * then on (docs/decisions.md "Identity: user names, e-mail addresses, Login Flow names").
 */
describe(`migration 0017: existing accounts and flows (${testDatabaseDialect})`, () => {
  it("addresses several accounts shared survive the migration; the oldest account holds the key; the rule applies to every change after it", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const migrator = new Migrator({
        db: t.storage.db,
        provider: { getMigrations: async () => allMigrations(t.storage.dialect) },
      });
      const names = Object.keys(allMigrations(t.storage.dialect)).sort();
      const before = names[names.indexOf(IDENTITY) - 1] as string;
      assert.equal((await migrator.migrateTo(before)).error, undefined);
      const db = t.storage.db;
      const user = (uid: string, email: string | null, createdAt: number) => ({
        uid,
        display_name: uid,
        email,
        password_hash: null,
        enabled: 1,
        is_admin: 0,
        created_at: createdAt,
      });
      await db
        .insertInto("users")
        .values([
          user("ann", "shared@example.com", 100),
          user("bea", "Shared@Example.com", 200),
          user("cid", "SHARED@example.com", 200),
          user("dan", "dan@example.com", 50),
          user("eve", null, 10),
        ])
        .execute();
      await db
        .insertInto("login_flows")
        .values({
          poll_token_hash: "p".repeat(64),
          login_token_hash: "l".repeat(64),
          client_name: "old flow",
          state: "pending",
          created_at: 1000,
          uid: null,
          login_name: null,
          app_password_id: null,
          sealed_app_password: null,
        })
        .execute();

      const latest = await migrator.migrateToLatest();
      assert.equal(latest.error, undefined, String(latest.error));
      assert.deepEqual(
        latest.results?.map((r) => [r.migrationName, r.status]),
        names.slice(names.indexOf(IDENTITY)).map((name) => [name, "Success"]),
      );

      const rows = await db.selectFrom("users").select(["uid", "email", "email_key", "email_verified"]).orderBy("uid").execute();
      assert.deepEqual(
        rows.map((r) => [r.uid, r.email, r.email_key, Number(r.email_verified)]),
        [
          ["ann", "shared@example.com", "shared@example.com", 0],
          ["bea", "Shared@Example.com", null, 0],
          ["cid", "SHARED@example.com", null, 0],
          ["dan", "dan@example.com", "dan@example.com", 0],
          ["eve", null, null, 0],
        ],
      );
      assert.deepEqual(await db.selectFrom("deleted_uids").selectAll().execute(), [], "no deletion is known from before");
      const flow = await new SqlLoginFlowStore(db).findPending("l".repeat(64), 0);
      assert.deepEqual(flow, { clientName: "old flow", startedAt: 1000, startedFrom: null });

      const users = new UserDirectory(new SqlUserStore(db), new SqlSessionStore(db), new ManualClock());
      // bea keeps her address while she does not change it.
      accepted(await users.updateProfile("bea", { displayName: "Bea", email: "Shared@Example.com" }));
      assert.equal(accepted(await users.require("bea")).email, "Shared@Example.com");
      // A new account cannot take it: ann holds its key.
      assertRefused(await users.create({ uid: "fay", email: "shared@EXAMPLE.com" }), "email_taken");
      // ann moves away; bea and cid still have it, so it is still taken.
      accepted(await users.updateProfile("ann", { email: "ann@example.com" }));
      assertRefused(await users.create({ uid: "fay", email: "shared@example.com" }), "email_taken");
      assertRefused(await users.updateProfile("dan", { email: "shared@example.com" }), "email_taken");
      // Neither of the two left may have it marked verified while the other has it too.
      assertRefused(await users.updateProfile("bea", { email: "Shared@Example.com", emailVerified: true }), "email_taken");
      accepted(await users.updateProfile("cid", { email: "cid@example.com" }));
      // Now bea alone has it: she may have it marked, and it takes its key.
      accepted(await users.updateProfile("bea", { email: "Shared@Example.com", emailVerified: true }));
      const bea = await db
        .selectFrom("users")
        .select(["email_key", "email_verified"])
        .where("uid", "=", "bea")
        .executeTakeFirstOrThrow();
      assert.deepEqual([bea.email_key, Number(bea.email_verified)], ["shared@example.com", 1]);
      assertRefused(await users.create({ uid: "fay", email: "shared@example.com" }), "email_taken");
    } finally {
      await t.cleanup();
    }
  });
});
