import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { accepted, assertRefused } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";

describe("accounts: users", () => {
  let t: TestServices;
  before(async () => {
    t = await createTestServices();
  });
  after(() => t.close());

  const countUsers = async () => (await t.services.users.list()).length;
  const countRows = async (table: "sessions" | "app_passwords", uid: string) => {
    const row = await t.testStorage.storage.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it("creates a user with profile, enabled, not admin, and an argon2id password hash", async () => {
    const user = accepted(
      await t.services.users.create({
        uid: "alice",
        password: "correct horse",
        displayName: "Alice A",
        email: "alice@example.com",
      }),
    );
    assert.deepEqual(user, {
      uid: "alice",
      displayName: "Alice A",
      email: "alice@example.com",
      emailVerified: false,
      enabled: true,
      isAdmin: false,
      createdAt: t.clock.nowSeconds(),
      language: null,
      timeZone: null,
    });
    assert.deepEqual(await t.services.users.find("alice"), user);
    const row = await t.testStorage.storage.db
      .selectFrom("users")
      .select("password_hash")
      .where("uid", "=", "alice")
      .executeTakeFirstOrThrow();
    assert.match(String(row.password_hash), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.ok(!String(row.password_hash).includes("correct horse"));
    assert.equal((await t.services.users.checkPassword("alice", "correct horse"))?.uid, "alice");
    assert.equal(await t.services.users.checkPassword("alice", "correct horsE"), undefined);
    assert.equal(await t.services.users.checkPassword("nobody", "correct horse"), undefined);
  });

  it("defaults the display name to the uid and makes administrators on request", async () => {
    const admin = accepted(await t.services.users.create({ uid: "root.admin", password: "admin password", isAdmin: true }));
    assert.equal(admin.displayName, "root.admin");
    assert.equal(admin.isAdmin, true);
    assert.equal(admin.email, null);
  });

  it("refuses invalid input before writing anything", async () => {
    const before = await countUsers();
    const cases: Array<[Parameters<TestServices["services"]["users"]["create"]>[0], string]> = [
      [{ uid: "", password: "long enough" }, "invalid_uid"],
      [{ uid: "bad/name", password: "long enough" }, "invalid_uid"],
      [{ uid: " padded", password: "long enough" }, "invalid_uid"],
      [{ uid: "x".repeat(65), password: "long enough" }, "invalid_uid"],
      [{ uid: "shortpw", password: "short" }, "invalid_password"],
      [{ uid: "bademail", password: "long enough", email: "not-an-email" }, "invalid_email"],
      [{ uid: "blankname", password: "long enough", displayName: "   " }, "invalid_display_name"],
    ];
    for (const [input, code] of cases) {
      assertRefused(await t.services.users.create(input), code, JSON.stringify(input));
      assert.equal(await t.services.users.find(input.uid), undefined, `no row for ${input.uid}`);
    }
    assert.equal(await countUsers(), before);
  });

  it("accepts ownCloud's user-name characters", async () => {
    for (const uid of ["bob.smith", "bob-smith", "bob_smith", "bob@example.com", "o'brien", "Bob Smith"]) {
      assert.equal(accepted(await t.services.users.create({ uid })).uid, uid);
    }
  });

  it("refuses a duplicate uid and leaves the existing user unchanged", async () => {
    accepted(await t.services.users.create({ uid: "dup", password: "first password", displayName: "First" }));
    const before = await countUsers();
    assertRefused(await t.services.users.create({ uid: "dup", password: "second password", displayName: "Second" }), "uid_taken");
    assert.equal(await countUsers(), before);
    assert.equal((await t.services.users.find("dup"))?.displayName, "First");
    assert.ok(await t.services.users.checkPassword("dup", "first password"));
    assert.equal(await t.services.users.checkPassword("dup", "second password"), undefined);
  });

  it("two concurrent creates of the same uid: exactly one wins, the other is told the uid is taken", async () => {
    const results = await Promise.all([
      t.services.users.create({ uid: "race", password: "password one" }),
      t.services.users.create({ uid: "race", password: "password two" }),
    ]);
    assert.equal(results.filter((r) => r.ok).length, 1);
    assertRefused(
      results.find((r) => !r.ok),
      "uid_taken",
    );
  });

  it("deleting a user deletes their sessions and app passwords, and nobody else's", async () => {
    accepted(await t.services.users.create({ uid: "gone", password: "gone password" }));
    accepted(await t.services.users.create({ uid: "stays", password: "stays password" }));
    for (const uid of ["gone", "stays"]) {
      await t.services.sessions.start(uid);
      await t.services.sessions.start(uid);
      accepted(await t.services.appPasswords.create(uid, "phone"));
    }
    assert.equal(await countRows("sessions", "gone"), 2);
    assert.equal(await countRows("app_passwords", "gone"), 1);
    accepted(await t.services.users.delete("gone"));
    assert.equal(await t.services.users.find("gone"), undefined);
    assert.equal(await countRows("sessions", "gone"), 0);
    assert.equal(await countRows("app_passwords", "gone"), 0);
    assert.equal(await countRows("sessions", "stays"), 2);
    assert.equal(await countRows("app_passwords", "stays"), 1);
    assertRefused(await t.services.users.delete("gone"), "no_such_user");
  });

  it("disabling a user ends their sessions at once; enabling does not bring them back", async () => {
    accepted(await t.services.users.create({ uid: "erin", password: "erin password" }));
    const session = await t.services.sessions.start("erin");
    const { secret } = accepted(await t.services.appPasswords.create("erin", "laptop"));
    assert.ok(await t.services.sessions.find(session.token));
    accepted(await t.services.users.setEnabled("erin", false));
    assert.equal((await t.services.users.find("erin"))?.enabled, false);
    assert.equal(await countRows("sessions", "erin"), 0);
    assert.equal(await t.services.sessions.find(session.token), undefined);
    // The account keeps its data: app passwords stay stored (but stop working, see the auth tests).
    assert.equal(await countRows("app_passwords", "erin"), 1);
    accepted(await t.services.users.setEnabled("erin", true));
    assert.equal(await t.services.sessions.find(session.token), undefined);
    assert.equal((await t.services.appPasswords.resolve(secret))?.uid, "erin");
    assertRefused(await t.services.users.setEnabled("nobody", false), "no_such_user");
  });

  it("sets a new password (validated) and updates the profile", async () => {
    accepted(await t.services.users.create({ uid: "frank", password: "old password" }));
    assertRefused(await t.services.users.setPassword("frank", "short"), "invalid_password");
    assert.ok(await t.services.users.checkPassword("frank", "old password"));
    accepted(await t.services.users.setPassword("frank", "new password"));
    assert.equal(await t.services.users.checkPassword("frank", "old password"), undefined);
    assert.ok(await t.services.users.checkPassword("frank", "new password"));
    assertRefused(await t.services.users.setPassword("nobody", "new password"), "no_such_user");
    assertRefused(await t.services.users.updateProfile("frank", { email: "nope" }), "invalid_email");
    accepted(await t.services.users.updateProfile("frank", { displayName: "Frank F", email: "frank@example.com" }));
    const frank = await t.services.users.find("frank");
    assert.equal(frank?.displayName, "Frank F");
    assert.equal(frank?.email, "frank@example.com");
  });

  it("a user without a password cannot log in with any password", async () => {
    accepted(await t.services.users.create({ uid: "nopass" }));
    assert.equal(await t.services.users.checkPassword("nopass", ""), undefined);
    assert.equal(await t.services.users.checkPassword("nopass", "anything at all"), undefined);
  });

  it("lists users ordered by uid", async () => {
    const uids = (await t.services.users.list()).map((u) => u.uid);
    assert.deepEqual(uids, [...uids].sort());
    assert.ok(uids.includes("alice"));
  });
});
