import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AccountError } from "../../src/accounts/errors.js";
import { createTestServices, type TestServices } from "../support/services.js";
import { testDatabaseDialect } from "../support/storage.js";

function refusedAs(code: string) {
  return (error: unknown) => {
    assert.ok(error instanceof AccountError, `expected an AccountError, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  };
}

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
    await t.services.users.create({ uid: "eve", password: "first password", email: "eve.first@example.com" });
    t.clock.advance(10);
    await t.services.users.delete("eve");
    assert.deepEqual(await deletedNames(), [{ uid: "eve", deletedAt: t.clock.nowSeconds() }]);
    await assert.rejects(
      t.services.users.create({ uid: "eve", password: "second password", email: "eve.second@example.com" }),
      (error: unknown) => {
        refusedAs("uid_of_deleted_user")(error);
        assert.match(
          String((error as Error).message),
          /^the user name "eve" belonged to a deleted account: .*--reuse-deleted-name "eve"$/,
        );
        return true;
      },
    );
    assert.equal(await t.services.users.find("eve"), undefined);
    assert.deepEqual(await deletedNames(), [{ uid: "eve", deletedAt: t.clock.nowSeconds() }], "still reserved");
  });

  it("with the administrator's explicit reuse the name goes to the new account and is no longer reserved; deleting it reserves it again", async () => {
    await t.services.users.create({ uid: "frank" });
    await t.services.users.delete("frank");
    const reused = await t.services.users.create({ uid: "frank", email: "frank.second@example.com", reuseDeletedUid: true });
    assert.equal(reused.uid, "frank");
    assert.equal((await t.services.users.find("frank"))?.email, "frank.second@example.com");
    assert.ok(!(await deletedNames()).some((row) => row.uid === "frank"));
    await t.services.users.delete("frank");
    assert.ok((await deletedNames()).some((row) => row.uid === "frank"));
    await assert.rejects(t.services.users.create({ uid: "frank" }), refusedAs("uid_of_deleted_user"));
  });

  it("a refused reuse (bad input, the name in use) leaves the name reserved", async () => {
    await t.services.users.create({ uid: "gina" });
    await t.services.users.delete("gina");
    await assert.rejects(
      t.services.users.create({ uid: "gina", password: "short", reuseDeletedUid: true }),
      refusedAs("invalid_password"),
    );
    await t.services.users.create({ uid: "holder", email: "held@example.com" });
    await assert.rejects(
      t.services.users.create({ uid: "gina", email: "HELD@example.com", reuseDeletedUid: true }),
      refusedAs("email_taken"),
    );
    assert.ok((await deletedNames()).some((row) => row.uid === "gina"));
    assert.equal(await t.services.users.find("gina"), undefined);
  });

  it("names are matched exactly, as logins match them: deleting `Ida` reserves neither `ida` nor any other name", async () => {
    await t.services.users.create({ uid: "Ida" });
    await t.services.users.delete("Ida");
    assert.equal((await t.services.users.create({ uid: "ida" })).uid, "ida");
    assert.equal((await t.services.users.create({ uid: "Ida2" })).uid, "Ida2");
    assert.equal((await t.services.users.create({ uid: "never-used", reuseDeletedUid: true })).uid, "never-used");
  });

  it("deleting a user who does not exist reserves nothing", async () => {
    const before = await deletedNames();
    await assert.rejects(t.services.users.delete("nobody"), refusedAs("no_such_user"));
    assert.deepEqual(await deletedNames(), before);
  });
});
