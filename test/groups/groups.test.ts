import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Migrator, sql } from "kysely";
import { allMigrations } from "../../src/storage/migrations/index.js";
import { accepted, assertRefused } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";
import { createTestStorage, testDatabaseDialect } from "../support/storage.js";

describe(`groups (${testDatabaseDialect})`, () => {
  let t: TestServices;
  before(async () => {
    t = await createTestServices();
    accepted(await t.services.users.create({ uid: "root", password: "root password", isAdmin: true }));
    accepted(await t.services.users.create({ uid: "alice", password: "alice password", displayName: "Alice A" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());

  it("a group id is 1 to 64 characters without comma, control characters or outer spaces; ownCloud's other characters are allowed", async () => {
    for (const gid of ["", " lead", "trail ", "a,b", "tab\there", "x".repeat(65)]) {
      assertRefused(await t.services.groups.create(gid), "invalid_gid", JSON.stringify(gid));
    }
    for (const gid of ["Sales & Marketing", "ümlaut-group", "team.one@example", "x".repeat(64)]) {
      assert.equal(accepted(await t.services.groups.create(gid)).gid, gid);
    }
  });

  it("a group id is created once: the second create is refused", async () => {
    accepted(await t.services.groups.create("editors", "The Editors"));
    assertRefused(await t.services.groups.create("editors"), "group_exists");
    assert.deepEqual(await t.services.groups.find("editors"), { gid: "editors", displayName: "The Editors" });
  });

  it("being an administrator is membership of admin: joining and leaving it changes User.isAdmin", async () => {
    assert.equal(accepted(await t.services.users.require("root")).isAdmin, true);
    assert.equal(accepted(await t.services.users.require("alice")).isAdmin, false);
    assert.equal(accepted(await t.services.groups.addMember("admin", "alice")), "added");
    assert.equal(accepted(await t.services.groups.addMember("admin", "alice")), "already");
    assert.equal(accepted(await t.services.users.require("alice")).isAdmin, true);
    assert.equal((await t.services.users.list()).find((u) => u.uid === "alice")?.isAdmin, true);
    assert.equal(accepted(await t.services.groups.removeMember("admin", "alice")), "removed");
    assert.equal(accepted(await t.services.users.require("alice")).isAdmin, false);
    assert.equal(accepted(await t.services.groups.removeMember("admin", "alice")), "not_member");
  });

  it("the last administrator is neither removed from admin nor deleted", async () => {
    assertRefused(await t.services.groups.removeMember("admin", "root"), "last_admin");
    assertRefused(await t.services.users.delete("root"), "last_admin");
    assert.equal(accepted(await t.services.users.require("root")).isAdmin, true);
    accepted(await t.services.groups.addMember("admin", "bob"));
    accepted(await t.services.groups.removeMember("admin", "root"));
    assertRefused(await t.services.users.delete("bob"), "last_admin");
    accepted(await t.services.groups.addMember("admin", "root"));
  });

  it("the last administrator is not disabled: nobody could administer the server again", async () => {
    accepted(await t.services.groups.removeMember("admin", "bob"));
    assert.deepEqual(
      accepted(await t.services.groups.members("admin")).map((m) => m.uid),
      ["root"],
    );
    assertRefused(await t.services.users.setEnabled("root", false), "last_admin");
    assert.equal(accepted(await t.services.users.require("root")).enabled, true);
    // With a second administrator, either may be disabled.
    accepted(await t.services.groups.addMember("admin", "bob"));
    accepted(await t.services.users.setEnabled("root", false));
    assert.equal(accepted(await t.services.users.require("root")).enabled, false);
    accepted(await t.services.users.setEnabled("root", true));
    accepted(await t.services.groups.removeMember("admin", "bob"));
  });

  it("two concurrent removals of the last two administrators leave one", async () => {
    accepted(await t.services.groups.addMember("admin", "bob"));
    const outcomes = await Promise.all([
      t.services.groups.removeMember("admin", "root"),
      t.services.groups.removeMember("admin", "bob"),
    ]);
    assert.equal(outcomes.filter((o) => o.ok).length, 1);
    assert.equal(accepted(await t.services.groups.members("admin")).length, 1);
    const [left] = accepted(await t.services.groups.members("admin"));
    if (left?.uid !== "root") {
      accepted(await t.services.groups.addMember("admin", "root"));
      accepted(await t.services.groups.removeMember("admin", "bob"));
    }
  });

  it("admin cannot be deleted; another group goes with its memberships, its members stay", async () => {
    assertRefused(await t.services.groups.delete("admin"), "admin_undeletable");
    accepted(await t.services.groups.create("temporary"));
    accepted(await t.services.groups.addMember("temporary", "alice"));
    accepted(await t.services.groups.delete("temporary"));
    assert.equal(await t.services.groups.find("temporary"), undefined);
    assert.deepEqual(await t.services.groups.groupsOf("alice"), []);
    assert.ok(await t.services.users.find("alice"));
    assertRefused(await t.services.groups.delete("temporary"), "no_such_group");
  });

  it("members need an existing group and user; a deleted user leaves every group", async () => {
    assertRefused(await t.services.groups.addMember("nope", "alice"), "no_such_group");
    assertRefused(await t.services.groups.addMember("editors", "nobody"), "no_such_user");
    accepted(await t.services.users.create({ uid: "carol", password: "carol password" }));
    accepted(await t.services.groups.addMember("editors", "carol"));
    accepted(await t.services.users.delete("carol"));
    assert.deepEqual(
      accepted(await t.services.groups.members("editors")).map((m) => m.uid),
      [],
    );
  });

  it("lists groups by id with member counts, filtered by a case-insensitive substring taken literally", async () => {
    accepted(await t.services.groups.addMember("editors", "alice"));
    const all = await t.services.groups.list();
    assert.deepEqual(
      all.filter((g) => ["admin", "editors"].includes(g.gid)).map((g) => [g.gid, g.memberCount]),
      [
        ["admin", 1],
        ["editors", 1],
      ],
    );
    assert.deepEqual(
      (await t.services.groups.list("EDIT")).map((g) => g.gid),
      ["editors"],
    );
    assert.deepEqual(await t.services.groups.list("%"), []);
    assert.deepEqual(
      await t.services.groups.groupsOfUsers(["alice", "root", "bob"]),
      new Map([
        ["alice", ["editors"]],
        ["root", ["admin"]],
      ]),
    );
  });
});

describe(`migration 0026, groups (${testDatabaseDialect})`, () => {
  it("moves every user the admin flag marked into the group admin, and drops the flag", async () => {
    const t = await createTestStorage({ migrate: false });
    try {
      const migrations = allMigrations(t.storage.dialect);
      const migrator = new Migrator({ db: t.storage.db, provider: { getMigrations: async () => migrations } });
      assert.equal((await migrator.migrateTo("2026_11_27_0024_passkeys")).error, undefined);
      const db = t.storage.db;
      for (const [uid, admin] of [
        ["ann", 1],
        ["ben", 0],
        ["cy", 1],
      ] as const) {
        await sql`insert into users (uid, display_name, email, password_hash, enabled, is_admin, created_at)
          values (${uid}, ${uid}, null, null, 1, ${admin}, 0)`.execute(db);
      }

      assert.equal((await migrator.migrateToLatest()).error, undefined);

      const members = await db.selectFrom("group_members").select(["gid", "uid"]).orderBy("uid").execute();
      assert.deepEqual(members, [
        { gid: "admin", uid: "ann" },
        { gid: "admin", uid: "cy" },
      ]);
      const columns = (await db.introspection.getTables()).find((table) => table.name === "users")?.columns.map((c) => c.name);
      assert.ok(columns && !columns.includes("is_admin"), String(columns));

      // And back: the flag again from the membership.
      assert.equal((await migrator.migrateTo("2026_11_27_0024_passkeys")).error, undefined);
      const flags = await sql<{ uid: string; is_admin: number }>`select uid, is_admin from users order by uid`.execute(db);
      assert.deepEqual(
        flags.rows.map((r) => [r.uid, Number(r.is_admin)]),
        [
          ["ann", 1],
          ["ben", 0],
          ["cy", 1],
        ],
      );
    } finally {
      await t.cleanup();
    }
  });
});
