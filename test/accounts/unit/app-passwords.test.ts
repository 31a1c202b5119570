import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppPasswords } from "../../../src/accounts/app-passwords.js";
import { ManualClock } from "../../../src/clock.js";
import { sha256Hex } from "../../../src/crypto/secrets.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";
import { accepted, assertRefused } from "../../support/results.js";

async function setup() {
  const stores = memoryStores();
  await addUsers(stores, "alice", "bob");
  const clock = new ManualClock(1_800_000_000);
  const trail = new RecordedTrail();
  const told: string[] = [];
  const appPasswords = new AppPasswords(stores.appPasswords, clock, trail, {
    created: async (uid, name) => void told.push(`created ${uid} ${name}`),
    revoked: async (uid) => void told.push(`revoked ${uid}`),
  });
  return { stores, clock, trail, appPasswords, told };
}

describe("accounts: the rules of app passwords, on memory stores", () => {
  it("the secret is shown once, 72 characters; only its digest is stored, under the trimmed name", async () => {
    const { appPasswords, stores, told } = await setup();
    const { appPassword, secret } = accepted(await appPasswords.create("alice", "  Laptop  "));
    assert.equal(secret.length, 72);
    assert.equal(appPassword.name, "Laptop");
    assert.deepEqual(await stores.appPasswords.findByTokenHash(sha256Hex(secret)), {
      id: appPassword.id,
      uid: "alice",
      lastUsedAt: null,
    });
    assert.equal(await stores.appPasswords.findByTokenHash(secret), undefined);
    assert.deepEqual(told, ["created alice Laptop"]);
  });

  it("a name that is blank or longer than 255 characters is refused before anything is written", async () => {
    const { appPasswords, told, trail } = await setup();
    for (const name of ["   ", "n".repeat(256)]) {
      assertRefused(await appPasswords.create("alice", name), "invalid_name");
    }
    assert.deepEqual(await appPasswords.list("alice"), []);
    assert.deepEqual([told, trail.kinds()], [[], []]);
  });

  it("resolving records a use at most once a minute, and a secret of the wrong length is no app password", async () => {
    const { appPasswords, stores, clock } = await setup();
    const { secret } = accepted(await appPasswords.create("alice", "Sync"));
    assert.equal(await appPasswords.resolve(secret.slice(1)), undefined);
    assert.equal((await appPasswords.resolve(secret))?.uid, "alice");
    const firstUse = clock.nowSeconds();
    clock.advance(59);
    await appPasswords.resolve(secret);
    assert.equal((await stores.appPasswords.findByTokenHash(sha256Hex(secret)))?.lastUsedAt, firstUse);
    clock.advance(1);
    await appPasswords.resolve(secret);
    assert.equal((await stores.appPasswords.findByTokenHash(sha256Hex(secret)))?.lastUsedAt, clock.nowSeconds());
  });

  it("a user revokes only their own; revocations are recorded and told only when something went", async () => {
    const { appPasswords, told, trail } = await setup();
    const { appPassword } = accepted(await appPasswords.create("alice", "Phone"));
    accepted(await appPasswords.create("alice", "Tablet"));
    told.length = 0;
    assert.equal(await appPasswords.revoke("bob", appPassword.id), false);
    assert.equal(await appPasswords.revokeAllOf("bob"), 0);
    assert.deepEqual(told, []);
    assert.equal(await appPasswords.revoke("alice", appPassword.id), true);
    assert.equal(await appPasswords.revokeAllOf("alice"), 1);
    assert.deepEqual(told, ["revoked alice", "revoked alice"]);
    assert.deepEqual(trail.kinds(), [
      "app_password.created",
      "app_password.created",
      "app_password.revoked",
      "app_password.revoked",
    ]);
  });
});
