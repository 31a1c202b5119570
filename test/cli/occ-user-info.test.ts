import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runOccInProcess } from "../support/occ.js";
import { createTestStorage, type TestStorage } from "../support/storage.js";

/**
 * `user:list` as ownCloud's (owncloud/core core/Command/User/ListUsers.php: a search pattern on
 * the user name, `-a` attributes, `-s` all of them, keyed by uid) and `user:info` as Nextcloud's
 * (core/Command/User/Info.php: user_id, display_name, email, enabled, groups, last_seen).
 */
describe("./occ user:list and user:info", () => {
  let storage: TestStorage;
  const occ = (...argv: string[]) => runOccInProcess(argv, storage);

  before(async () => {
    storage = await createTestStorage();
    for (const argv of [
      ["user:add", "alice", "--display-name=Alice A", "--email=alice@example.com", "--admin"],
      ["user:add", "bob", "--display-name=Bob B", "--group=editors"],
      ["user:add", "carla"],
      ["user:disable", "bob"],
    ]) {
      const result = await occ(...argv);
      assert.equal(result.code, 0, result.err);
    }
  });
  after(() => storage.cleanup());

  it("user:list prints each user's display name, plain as uid: name, in JSON keyed by uid with the attribute named", async () => {
    const plain = await occ("user:list");
    assert.equal(plain.out, "  - alice: Alice A\n  - bob: Bob B\n  - carla: carla\n");
    const json = await occ("user:list", "--output=json");
    assert.deepEqual(JSON.parse(json.out), {
      alice: { displayName: "Alice A" },
      bob: { displayName: "Bob B" },
      carla: { displayName: "carla" },
    });
  });

  it("user:list -a names the attributes (state and address among them), repeated or comma-separated, any case; -s shows all", async () => {
    const chosen = await occ("user:list", "-a", "displayName", "-a", "email,ENABLED", "--output=json");
    assert.equal(chosen.code, 0, chosen.err);
    assert.deepEqual(JSON.parse(chosen.out), {
      alice: { displayName: "Alice A", email: "alice@example.com", enabled: true },
      bob: { displayName: "Bob B", email: null, enabled: false },
      carla: { displayName: "carla", email: null, enabled: true },
    });
    const plain = await occ("user:list", "-a", "email", "-a", "enabled");
    assert.match(plain.out, /^ {2}- alice:\n {4}- email: alice@example\.com\n {4}- enabled: true\n/);
    assert.match(plain.out, /^ {2}- bob:\n {4}- email\n {4}- enabled: false\n/m);
    const one = await occ("user:list", "-a", "enabled");
    assert.equal(one.out, "  - alice: true\n  - bob: false\n  - carla: true\n", "one attribute in plain: uid: value");
    const all = JSON.parse((await occ("user:list", "-s", "--output=json")).out) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(all.alice ?? {}), ["uid", "displayName", "email", "enabled", "lastLogin", "creationTime"]);
    assert.equal(all.alice?.lastLogin, 0, "never signed in: 0, as ownCloud");
    assert.equal(typeof all.alice?.creationTime, "number");
  });

  it("user:list [search-pattern] keeps the users whose user name contains it, in any case", async () => {
    assert.deepEqual(Object.keys(JSON.parse((await occ("user:list", "AR", "--output=json")).out)), ["carla"]);
    assert.deepEqual(JSON.parse((await occ("user:list", "nobody", "--output=json")).out), {});
    // The display name "Alice A" does not count: ownCloud searches the user id.
    assert.deepEqual(Object.keys(JSON.parse((await occ("user:list", "a a", "--output=json")).out)), []);
  });

  it("user:list refuses an unknown attribute, and one of ownCloud's that an account here has not, with exit 1", async () => {
    const unknown = await occ("user:list", "-a", "shoeSize");
    assert.equal(unknown.code, 1);
    assert.match(
      unknown.err,
      /Unknown attribute shoeSize; attributes: uid, displayName, email, enabled, lastLogin, creationTime/,
    );
    const quota = await occ("user:list", "-a", "quota");
    assert.equal(quota.code, 1);
    assert.match(quota.err, /The attribute quota does not apply to Keystream accounts/);
  });

  it("user:info prints Nextcloud's fields (plain and JSON), groups and last sign-in included; an unknown user exits 1", async () => {
    const json = JSON.parse((await occ("user:info", "alice", "--output=json")).out) as Record<string, unknown>;
    assert.deepEqual(
      { ...json, created: typeof json.created },
      {
        user_id: "alice",
        display_name: "Alice A",
        email: "alice@example.com",
        email_verified: false,
        enabled: true,
        groups: ["admin"],
        created: "string",
        last_seen: "never",
        second_factors: [],
      },
    );
    assert.match(String(json.created), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/, "ISO 8601 as PHP's DATE_ATOM");
    await storage.storage.db.updateTable("users").set({ last_login_at: 1_800_000_000 }).where("uid", "=", "bob").execute();
    const bob = JSON.parse((await occ("user:info", "bob", "--output=json")).out) as Record<string, unknown>;
    assert.equal(bob.last_seen, "2027-01-15T08:00:00+00:00");
    assert.equal(bob.enabled, false);
    assert.equal(bob.email, "", "no address: an empty string, as Nextcloud");
    assert.deepEqual(bob.groups, ["editors"]);
    const plain = await occ("user:info", "bob");
    assert.match(plain.out, /^ {2}- user_id: bob\n {2}- display_name: Bob B\n {2}- email: \n/);
    assert.match(plain.out, /^ {2}- groups:\n {4}- editors\n/m);
    const missing = await occ("user:info", "nobody");
    assert.equal(missing.code, 1);
    assert.match(missing.err, /the user "nobody" does not exist/);
  });
});
