import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sha256Hex } from "../../src/crypto/secrets.js";
import { accepted, assertRefused } from "../support/results.js";
import { createTestServices, type TestServices } from "../support/services.js";

describe("accounts: app passwords and sessions at rest", () => {
  let t: TestServices;
  before(async () => {
    t = await createTestServices();
    accepted(await t.services.users.create({ uid: "alice", password: "alice password" }));
    accepted(await t.services.users.create({ uid: "bob", password: "bob password" }));
  });
  after(() => t.close());

  const allCells = async (table: "app_passwords" | "sessions") =>
    (await t.testStorage.storage.db.selectFrom(table).selectAll().execute()).flatMap((row) => Object.values(row).map(String));

  it("stores only the SHA-256 of an app password; the plain value is returned once", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("alice", "  Phone  "));
    assert.match(secret, /^[A-Za-z0-9]{72}$/);
    assert.equal(appPassword.name, "Phone");
    const cells = await allCells("app_passwords");
    assert.ok(cells.length > 0);
    for (const cell of cells) assert.ok(!cell.includes(secret), "the plain app password is not in the table");
    assert.ok(cells.includes(sha256Hex(secret)));
    const listed = await t.services.appPasswords.list("alice");
    assert.deepEqual(
      listed.map((p) => ({ name: p.name, lastUsedAt: p.lastUsedAt })),
      [{ name: "Phone", lastUsedAt: null }],
    );
    assert.ok(!JSON.stringify(listed).includes(secret));
  });

  it("resolves an app password to its owner and records when it was last used", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("alice", "laptop"));
    t.clock.advance(100);
    assert.deepEqual(await t.services.appPasswords.resolve(secret), { uid: "alice", id: appPassword.id });
    const listed = (await t.services.appPasswords.list("alice")).find((p) => p.id === appPassword.id);
    assert.equal(listed?.lastUsedAt, t.clock.nowSeconds());
    // One character off (never the same character: the secret may end in "x" itself).
    const oneOff = `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`;
    assert.equal(await t.services.appPasswords.resolve(oneOff), undefined);
    assert.equal(await t.services.appPasswords.resolve(""), undefined);
  });

  it("writes the last use at most once a minute (a client authenticates every request with it)", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("alice", "desktop"));
    const lastUsed = async () => (await t.services.appPasswords.list("alice")).find((p) => p.id === appPassword.id)?.lastUsedAt;
    await t.services.appPasswords.resolve(secret);
    const first = t.clock.nowSeconds();
    assert.equal(await lastUsed(), first);
    t.clock.advance(59);
    await t.services.appPasswords.resolve(secret);
    assert.equal(await lastUsed(), first, "a use within the minute is not written");
    t.clock.advance(1);
    await t.services.appPasswords.resolve(secret);
    assert.equal(await lastUsed(), first + 60);
  });

  it("refuses an empty or overlong name", async () => {
    assert.match(assertRefused(await t.services.appPasswords.create("alice", "   "), "invalid_name").message, /1 to 255/);
    assert.match(
      assertRefused(await t.services.appPasswords.create("alice", "x".repeat(256)), "invalid_name").message,
      /1 to 255/,
    );
  });

  it("revokes only the owner's app password", async () => {
    const { secret, appPassword } = accepted(await t.services.appPasswords.create("alice", "tablet"));
    assert.equal(await t.services.appPasswords.revoke("bob", appPassword.id), false, "bob cannot revoke alice's");
    assert.ok(await t.services.appPasswords.resolve(secret));
    assert.equal(await t.services.appPasswords.revoke("alice", appPassword.id), true);
    assert.equal(await t.services.appPasswords.resolve(secret), undefined);
    assert.equal(await t.services.appPasswords.revoke("alice", appPassword.id), false);
  });

  it("stores sessions by the SHA-256 of the cookie value", async () => {
    const session = await t.services.sessions.start("alice");
    const cells = await allCells("sessions");
    for (const cell of cells) assert.ok(!cell.includes(session.token), "the cookie value is not in the table");
    assert.ok(cells.includes(sha256Hex(session.token)));
    assert.equal((await t.services.sessions.find(session.token))?.uid, "alice");
    assert.equal(await t.services.sessions.find(`${session.token}x`), undefined);
  });

  it("a session expires after its lifetime without activity (the clock decides)", async () => {
    const lifetime = t.services.settings.get("session.lifetime");
    const session = await t.services.sessions.start("bob");
    assert.equal(session.expiresAt, t.clock.nowSeconds() + lifetime);
    t.clock.advance(lifetime - 1);
    assert.ok(await t.services.sessions.find(session.token));
    t.clock.advance(1);
    assert.equal(await t.services.sessions.find(session.token), undefined);
    assert.ok((await t.services.sessions.deleteExpired()) >= 1);
  });

  it("activity slides a session's expiry forward", async () => {
    const lifetime = t.services.settings.get("session.lifetime");
    const session = await t.services.sessions.start("bob");
    t.clock.advance(lifetime - 10);
    const found = await t.services.sessions.find(session.token);
    assert.ok(found);
    await t.services.sessions.touch(found);
    t.clock.advance(20);
    assert.ok(await t.services.sessions.find(session.token), "still alive past the original expiry");
  });
});
