import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UserPreferences } from "../../../src/accounts/preferences.js";
import { UserDirectory } from "../../../src/accounts/users.js";
import { ManualClock } from "../../../src/clock.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";
import { accepted, assertRefused } from "../../support/results.js";

async function setup() {
  const stores = memoryStores();
  await addUsers(stores, "alice", "bob");
  const users = new UserDirectory(stores.users, stores.sessions, new ManualClock());
  return { stores, users, preferences: new UserPreferences(stores.preferences, users) };
}

describe("accounts: the rules of user preferences, on memory stores", () => {
  it("core lang and core timezone live on the user row, normalised; other preferences in the table", async () => {
    const { preferences, stores } = await setup();
    assert.equal(accepted(await preferences.set("alice", "core", "lang", "DE-at")), "de");
    accepted(await preferences.set("alice", "core", "timezone", "Europe/Berlin"));
    accepted(await preferences.set("alice", "files", "sort", "name"));
    const user = await stores.users.find("alice");
    assert.deepEqual([user?.language, user?.timeZone], ["de", "Europe/Berlin"]);
    assert.deepEqual(await stores.preferences.list("alice"), [{ app: "files", key: "sort", value: "name" }]);
    assert.deepEqual(accepted(await preferences.list("alice")), {
      core: { lang: "de", timezone: "Europe/Berlin" },
      files: { sort: "name" },
    });
  });

  it("an unsupported language, an unknown time zone or a bad name is refused before anything is written", async () => {
    const { preferences, stores } = await setup();
    assertRefused(await preferences.set("alice", "core", "lang", "xx"), "invalid_preference");
    assertRefused(await preferences.set("alice", "core", "timezone", "Mars/Olympus"), "invalid_preference");
    assertRefused(await preferences.set("alice", "bad app", "key", "v"), "invalid_preference");
    assertRefused(await preferences.set("alice", "app", "k".repeat(65), "v"), "invalid_preference");
    assertRefused(await preferences.set("alice", "app", "key", "v".repeat(4001)), "invalid_preference");
    assert.deepEqual(await stores.preferences.list("alice"), []);
    const user = await stores.users.find("alice");
    assert.deepEqual([user?.language, user?.timeZone], [null, null]);
  });

  it("an unknown user is refused for every read and write", async () => {
    const { preferences } = await setup();
    assertRefused(await preferences.get("nobody", "files", "sort"), "no_such_user");
    assertRefused(await preferences.set("nobody", "files", "sort", "x"), "no_such_user");
    assertRefused(await preferences.delete("nobody", "files", "sort"), "no_such_user");
  });

  it("settings email is the account's address, under the address rules", async () => {
    const { preferences, users } = await setup();
    accepted(await preferences.set("alice", "settings", "email", "alice@example.com"));
    assert.equal((await users.find("alice"))?.email, "alice@example.com");
    assert.equal(accepted(await preferences.get("alice", "settings", "email")), "alice@example.com");
    assertRefused(await preferences.set("bob", "settings", "email", "ALICE@example.com"), "email_taken");
    assert.equal(accepted(await preferences.delete("alice", "settings", "email")), true);
    assert.equal(accepted(await preferences.delete("alice", "settings", "email")), false);
    assert.equal((await users.find("alice"))?.email, null);
  });

  it("deleting a row preference clears the column; deleting what was never set is false", async () => {
    const { preferences } = await setup();
    accepted(await preferences.set("alice", "core", "lang", "fr"));
    assert.equal(accepted(await preferences.delete("alice", "core", "lang")), true);
    assert.equal(accepted(await preferences.get("alice", "core", "lang")), undefined);
    assert.equal(accepted(await preferences.delete("alice", "core", "lang")), false);
    assert.equal(accepted(await preferences.delete("alice", "files", "sort")), false);
  });
});
