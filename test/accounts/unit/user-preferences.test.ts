import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AccountError } from "../../../src/accounts/errors.js";
import { UserPreferences } from "../../../src/accounts/preferences.js";
import { UserDirectory } from "../../../src/accounts/users.js";
import { ManualClock } from "../../../src/clock.js";
import { addUsers, memoryStores } from "../../support/memory/index.js";

function accountError(code: string) {
  return (error: unknown) => error instanceof AccountError && error.code === code;
}

async function setup() {
  const stores = memoryStores();
  await addUsers(stores, "alice", "bob");
  const users = new UserDirectory(stores.users, stores.sessions, new ManualClock());
  return { stores, users, preferences: new UserPreferences(stores.preferences, users) };
}

describe("accounts: the rules of user preferences, on memory stores", () => {
  it("core lang and core timezone live on the user row, normalised; other preferences in the table", async () => {
    const { preferences, stores } = await setup();
    assert.equal(await preferences.set("alice", "core", "lang", "DE-at"), "de");
    await preferences.set("alice", "core", "timezone", "Europe/Berlin");
    await preferences.set("alice", "files", "sort", "name");
    const user = await stores.users.find("alice");
    assert.deepEqual([user?.language, user?.timeZone], ["de", "Europe/Berlin"]);
    assert.deepEqual(await stores.preferences.list("alice"), [{ app: "files", key: "sort", value: "name" }]);
    assert.deepEqual(await preferences.list("alice"), {
      core: { lang: "de", timezone: "Europe/Berlin" },
      files: { sort: "name" },
    });
  });

  it("an unsupported language, an unknown time zone or a bad name is refused before anything is written", async () => {
    const { preferences, stores } = await setup();
    await assert.rejects(preferences.set("alice", "core", "lang", "xx"), accountError("invalid_preference"));
    await assert.rejects(preferences.set("alice", "core", "timezone", "Mars/Olympus"), accountError("invalid_preference"));
    await assert.rejects(preferences.set("alice", "bad app", "key", "v"), accountError("invalid_preference"));
    await assert.rejects(preferences.set("alice", "app", "k".repeat(65), "v"), accountError("invalid_preference"));
    await assert.rejects(preferences.set("alice", "app", "key", "v".repeat(4001)), accountError("invalid_preference"));
    assert.deepEqual(await stores.preferences.list("alice"), []);
    const user = await stores.users.find("alice");
    assert.deepEqual([user?.language, user?.timeZone], [null, null]);
  });

  it("an unknown user is refused for every read and write", async () => {
    const { preferences } = await setup();
    await assert.rejects(preferences.get("nobody", "files", "sort"), accountError("no_such_user"));
    await assert.rejects(preferences.set("nobody", "files", "sort", "x"), accountError("no_such_user"));
    await assert.rejects(preferences.delete("nobody", "files", "sort"), accountError("no_such_user"));
  });

  it("settings email is the account's address, under the address rules", async () => {
    const { preferences, users } = await setup();
    await preferences.set("alice", "settings", "email", "alice@example.com");
    assert.equal((await users.find("alice"))?.email, "alice@example.com");
    assert.equal(await preferences.get("alice", "settings", "email"), "alice@example.com");
    await assert.rejects(preferences.set("bob", "settings", "email", "ALICE@example.com"), accountError("email_taken"));
    assert.equal(await preferences.delete("alice", "settings", "email"), true);
    assert.equal(await preferences.delete("alice", "settings", "email"), false);
    assert.equal((await users.find("alice"))?.email, null);
  });

  it("deleting a row preference clears the column; deleting what was never set is false", async () => {
    const { preferences } = await setup();
    await preferences.set("alice", "core", "lang", "fr");
    assert.equal(await preferences.delete("alice", "core", "lang"), true);
    assert.equal(await preferences.get("alice", "core", "lang"), undefined);
    assert.equal(await preferences.delete("alice", "core", "lang"), false);
    assert.equal(await preferences.delete("alice", "files", "sort"), false);
  });
});
