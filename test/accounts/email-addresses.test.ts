import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { accepted, assertRefused } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";
import { testDatabaseDialect } from "../support/storage.js";

/**
 * One account, one e-mail address (compared ignoring case), and `email_verified` only on an
 * administrator's word (src/accounts/users.ts, src/accounts/domain/email.ts).
 */
describe(`accounts: e-mail addresses (${testDatabaseDialect})`, () => {
  let t: TestServices;
  before(async () => {
    t = await createTestServices();
    accepted(await t.services.users.create({ uid: "alice", email: "alice@example.com" }));
  });
  after(() => t.close());

  const users = () => t.services.users;

  it("a new account may not take an address another account has, whatever its case or Unicode form; nothing is written", async () => {
    for (const email of ["alice@example.com", "ALICE@Example.COM", "Alice@example.com"]) {
      const refusal = assertRefused(await users().create({ uid: "mallory", email }), "email_taken");
      assert.equal(refusal.message, `the email address "${email}" is already used by another account`);
    }
    assert.equal(await users().find("mallory"), undefined);
    accepted(await users().create({ uid: "zoe", email: "zoé@example.com".normalize("NFC") }));
    assertRefused(await users().create({ uid: "zoe2", email: "ZOÉ@example.com".normalize("NFD") }), "email_taken");
  });

  it("a profile change to another account's address is refused, and nothing of the change is written", async () => {
    accepted(await users().create({ uid: "bob", displayName: "Bob", email: "bob@example.com" }));
    assertRefused(await users().updateProfile("bob", { displayName: "Alice A", email: "Alice@Example.com" }), "email_taken");
    const bob = accepted(await users().require("bob"));
    assert.equal(bob.displayName, "Bob");
    assert.equal(bob.email, "bob@example.com");
  });

  it("an account may keep its address, save it again or change its case; a cleared address is free for another account", async () => {
    accepted(await users().create({ uid: "carol", email: "carol@example.com" }));
    accepted(await users().updateProfile("carol", { displayName: "Carol", email: "carol@example.com" }));
    accepted(await users().updateProfile("carol", { email: "Carol@Example.com" }));
    assert.equal(accepted(await users().require("carol")).email, "Carol@Example.com");
    accepted(await users().updateProfile("carol", { email: "" }));
    assert.equal(accepted(await users().require("carol")).email, null);
    assert.equal(accepted(await users().create({ uid: "carol2", email: "carol@example.com" })).email, "carol@example.com");
  });

  it("of two concurrent writes of one new address exactly one account gets it; the other is told it is taken", async () => {
    accepted(await users().create({ uid: "dan" }));
    const results = await Promise.all([
      users().create({ uid: "race-a", email: "race@example.com" }),
      users().create({ uid: "race-b", email: "RACE@example.com" }),
      users().updateProfile("dan", { email: "Race@Example.com" }),
    ]);
    assert.equal(results.filter((r) => r.ok).length, 1, JSON.stringify(results));
    for (const result of results) if (!result.ok) assertRefused(result, "email_taken");
    const holders = (await users().list()).filter((u) => u.email?.toLowerCase() === "race@example.com");
    assert.equal(holders.length, 1);
  });

  it("the database itself keeps one account per address: a second row with the same address key is refused", async () => {
    const db = t.testStorage.storage.db;
    const row = (uid: string) => ({
      uid,
      display_name: uid,
      email: "Direct@Example.com",
      email_key: "direct@example.com",
      password_hash: null,
      enabled: 1,
      created_at: 0,
    });
    await db.insertInto("users").values(row("direct-1")).execute();
    await assert.rejects(db.insertInto("users").values(row("direct-2")).execute());
    assert.equal(await users().find("direct-2"), undefined);
  });

  it("an address is unverified until an administrator says otherwise, and unverified again once it changes, even in case", async () => {
    const erin = accepted(await users().create({ uid: "erin", email: "erin@example.com" }));
    assert.equal(erin.emailVerified, false);
    accepted(await users().updateProfile("erin", { email: "erin@example.com", emailVerified: true }));
    assert.equal(accepted(await users().require("erin")).emailVerified, true);
    accepted(await users().updateProfile("erin", { displayName: "Erin", email: "erin@example.com" }));
    assert.equal(accepted(await users().require("erin")).emailVerified, true, "saving the same address keeps the mark");
    accepted(await users().updateProfile("erin", { email: "Erin@example.com" }));
    assert.equal(accepted(await users().require("erin")).emailVerified, false, "another spelling is another statement");
    accepted(await users().updateProfile("erin", { email: "erin@example.net", emailVerified: true }));
    assert.equal(accepted(await users().require("erin")).emailVerified, true);
    accepted(await users().updateProfile("erin", { email: "erin@example.net", emailVerified: false }));
    assert.equal(accepted(await users().require("erin")).emailVerified, false, "an administrator may withdraw the mark");
    accepted(await users().updateProfile("erin", { email: "erin@example.net", emailVerified: true }));
    accepted(await users().updateProfile("erin", { email: "" }));
    const cleared = accepted(await users().require("erin"));
    assert.equal(cleared.email, null);
    assert.equal(cleared.emailVerified, false, "no address, nothing verified");
  });

  it("an administrator cannot mark verified an address another account has", async () => {
    accepted(await users().create({ uid: "fred", email: "fred@example.com" }));
    assertRefused(await users().updateProfile("fred", { email: "alice@example.com", emailVerified: true }), "email_taken");
    assert.equal(accepted(await users().require("fred")).email, "fred@example.com");
  });

  it("user:setting's `settings email` is the account's address, under the same rules", async () => {
    const { preferences } = t.services;
    accepted(await users().create({ uid: "gus", email: "gus@example.com" }));
    assert.equal(accepted(await preferences.get("gus", "settings", "email")), "gus@example.com");
    assert.deepEqual(accepted(await preferences.list("gus")).settings, { email: "gus@example.com" });
    assertRefused(await preferences.set("gus", "settings", "email", "ALICE@example.com"), "email_taken");
    assertRefused(await preferences.set("gus", "settings", "email", "no address"), "invalid_email");
    accepted(await users().updateProfile("gus", { email: "gus@example.com", emailVerified: true }));
    assert.equal(accepted(await preferences.set("gus", "settings", "email", "gus@example.org")), "gus@example.org");
    const gus = accepted(await users().require("gus"));
    assert.equal(gus.email, "gus@example.org");
    assert.equal(gus.emailVerified, false);
    assert.equal(accepted(await preferences.delete("gus", "settings", "email")), true);
    assert.equal(accepted(await users().require("gus")).email, null);
    assert.equal(accepted(await preferences.delete("gus", "settings", "email")), false);
    assert.equal(accepted(await preferences.get("gus", "settings", "email")), undefined);
  });
});
