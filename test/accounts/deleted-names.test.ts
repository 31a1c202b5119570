import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { accepted, assertRefused } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * A user name is the OpenID Connect `sub` (OIDC Core §2: never reassigned): the name of a deleted
 * account goes to a new account only on the administrator's explicit word.
 */
describe(`accounts: a deleted user's name (${testDatabaseDialect})`, () => {
  let t: TestServices;
  before(async () => {
    t = await createTestServices();
  });
  after(() => t.close());

  const deletedNames = async () =>
    (await t.testStorage.storage.db.selectFrom("deleted_uids").select(["uid", "deleted_at"]).orderBy("uid").execute()).map(
      (row) => ({ uid: row.uid, deletedAt: Number(row.deleted_at) }),
    );

  it("a deleted user's name is refused to a new account, with a message naming the explicit override; nothing is written", async () => {
    accepted(await t.services.users.create({ uid: "eve", password: "first password", email: "eve.first@example.com" }));
    t.clock.advance(10);
    accepted(await t.services.users.delete("eve"));
    assert.deepEqual(await deletedNames(), [{ uid: "eve", deletedAt: t.clock.nowSeconds() }]);
    const refusal = assertRefused(
      await t.services.users.create({ uid: "eve", password: "second password", email: "eve.second@example.com" }),
      "uid_of_deleted_user",
    );
    assert.match(refusal.message, /^the user name "eve" belonged to a deleted account: .*--reuse-deleted-name "eve"$/);
    assert.equal(await t.services.users.find("eve"), undefined);
    assert.deepEqual(await deletedNames(), [{ uid: "eve", deletedAt: t.clock.nowSeconds() }], "still reserved");
  });

  it("with the administrator's explicit reuse the name goes to the new account and is no longer reserved; deleting it reserves it again", async () => {
    accepted(await t.services.users.create({ uid: "frank" }));
    accepted(await t.services.users.delete("frank"));
    const reused = accepted(
      await t.services.users.create({ uid: "frank", email: "frank.second@example.com", reuseDeletedUid: true }),
    );
    assert.equal(reused.uid, "frank");
    assert.equal((await t.services.users.find("frank"))?.email, "frank.second@example.com");
    assert.ok(!(await deletedNames()).some((row) => row.uid === "frank"));
    accepted(await t.services.users.delete("frank"));
    assert.ok((await deletedNames()).some((row) => row.uid === "frank"));
    assertRefused(await t.services.users.create({ uid: "frank" }), "uid_of_deleted_user");
  });

  it("a refused reuse (bad input, the name in use) leaves the name reserved", async () => {
    accepted(await t.services.users.create({ uid: "gina" }));
    accepted(await t.services.users.delete("gina"));
    assertRefused(await t.services.users.create({ uid: "gina", password: "short", reuseDeletedUid: true }), "invalid_password");
    accepted(await t.services.users.create({ uid: "holder", email: "held@example.com" }));
    assertRefused(
      await t.services.users.create({ uid: "gina", email: "HELD@example.com", reuseDeletedUid: true }),
      "email_taken",
    );
    assert.ok((await deletedNames()).some((row) => row.uid === "gina"));
    assert.equal(await t.services.users.find("gina"), undefined);
  });

  it("names are matched exactly, as logins match them: deleting `Ida` reserves neither `ida` nor any other name", async () => {
    accepted(await t.services.users.create({ uid: "Ida" }));
    accepted(await t.services.users.delete("Ida"));
    assert.equal(accepted(await t.services.users.create({ uid: "ida" })).uid, "ida");
    assert.equal(accepted(await t.services.users.create({ uid: "Ida2" })).uid, "Ida2");
    assert.equal(accepted(await t.services.users.create({ uid: "never-used", reuseDeletedUid: true })).uid, "never-used");
  });

  it("deleting a user who does not exist reserves nothing", async () => {
    const before = await deletedNames();
    assertRefused(await t.services.users.delete("nobody"), "no_such_user");
    assert.deepEqual(await deletedNames(), before);
  });
});
