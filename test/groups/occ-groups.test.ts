import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runOcc } from "../support/occ.js";
import { createTestStorage, type TestStorage, testDatabaseDialect } from "../support/storage.js";

/** ownCloud's occ group:* commands, output and exit codes as owncloud/core core/Command/Group/*.php print them. */
describe(`./occ group:* (the real executable, ${testDatabaseDialect})`, () => {
  let s: TestStorage;
  const occ = (...args: string[]) => runOcc(args, s, { OC_PASS: "a long enough password" });

  before(async () => {
    s = await createTestStorage();
    assert.equal((await occ("user:add", "root", "--admin", "--password-from-env")).code, 0);
    assert.equal((await occ("user:add", "alice", "--display-name=Alice A", "--password-from-env")).code, 0);
  });
  after(() => s.cleanup());

  it("group:add creates a group once, as ownCloud words it; an invalid name exits 1", async () => {
    const added = await occ("group:add", "editors", "--display-name=The Editors");
    assert.deepEqual([added.code, added.stdout], [0, 'Created group "editors"\n']);
    const again = await occ("group:add", "editors");
    assert.deepEqual([again.code, again.stderr], [1, 'The group "editors" already exists\n']);
    const invalid = await occ("group:add", "a,b");
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^Group "a,b" could not be created: invalid group name/);
  });

  it("group:list prints the group names: a JSON array, plain as ownCloud's list", async () => {
    const json = await occ("group:list", "--output=json");
    assert.deepEqual([json.code, json.stdout], [0, '["admin","editors"]\n']);
    const plain = await occ("group:list");
    assert.equal(plain.stdout, "  - admin\n  - editors\n");
    const searched = await occ("group:list", "EDI", "--output=json");
    assert.equal(searched.stdout, '["editors"]\n');
  });

  it("group:add-member adds each --member, says who already was one, and exits 1 for one that does not exist", async () => {
    const added = await occ("group:add-member", "editors", "--member=alice", "--member=root");
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, 'User "alice" added to group "editors"\nUser "root" added to group "editors"\n');
    const mixed = await occ("group:add-member", "editors", "-m", "alice", "--member=ghost");
    assert.equal(mixed.code, 1);
    assert.equal(mixed.stdout, 'User "alice" is already a member of group "editors"\n');
    assert.equal(mixed.stderr, 'User "ghost" could not be found - not added to group "editors"\n');
    const none = await occ("group:add-member", "editors");
    assert.deepEqual([none.code, none.stderr], [1, "No members specified\n"]);
    const noGroup = await occ("group:add-member", "nope", "--member=alice");
    assert.deepEqual([noGroup.code, noGroup.stderr], [1, 'Group "nope" does not exist\n']);
  });

  it("group:list-members prints user name and display name: a JSON object, plain `  - uid: name`", async () => {
    const json = await occ("group:list-members", "editors", "--output=json");
    assert.deepEqual([json.code, JSON.parse(json.stdout)], [0, { alice: "Alice A", root: "root" }]);
    assert.equal(json.stdout, '{"alice":"Alice A","root":"root"}\n');
    const plain = await occ("group:list-members", "editors");
    assert.equal(plain.stdout, "  - alice: Alice A\n  - root: root\n");
    assert.equal((await occ("group:add", "empty")).code, 0);
    assert.equal((await occ("group:list-members", "empty", "--output=json")).stdout, "[]\n");
    assert.equal((await occ("group:delete", "empty")).code, 0);
    const missing = await occ("group:list-members", "nope");
    assert.deepEqual([missing.code, missing.stderr], [1, "Group nope does not exist\n"]);
  });

  it("group:remove-member removes each --member; the last administrator stays in admin (exit 1)", async () => {
    const removed = await occ("group:remove-member", "editors", "--member=root", "--member=root");
    assert.equal(removed.code, 0);
    assert.equal(
      removed.stdout,
      'Member "root" removed from group "editors"\nMember "root" could not be found in group "editors"\n',
    );
    const ghost = await occ("group:remove-member", "editors", "--member=ghost");
    assert.deepEqual([ghost.code, ghost.stderr], [1, 'Member "ghost" does not exist - not removed from group "editors"\n']);
    const last = await occ("group:remove-member", "admin", "--member=root");
    assert.equal(last.code, 1);
    assert.match(last.stderr, /"root" is the last administrator/);
    const deleteLast = await occ("user:delete", "root");
    assert.equal(deleteLast.code, 1);
    assert.match(deleteLast.stderr, /"root" is the last administrator/);
  });

  it("user:add --group adds the new user to each group, creating a missing one as ownCloud's does; --admin joins admin", async () => {
    const result = await occ("user:add", "dora", "--group=editors", "--group=writers", "--admin", "--password-from-env");
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /User "dora" added to group "editors"\nCreated group "writers"\nUser "dora" added to group "writers"\n/,
    );
    const admins = await occ("group:list-members", "admin", "--output=json");
    assert.deepEqual(Object.keys(JSON.parse(admins.stdout)), ["dora", "root"]);
    const refused = await occ("user:add", "eve", "--group= spaced", "--password-from-env");
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /invalid group name/);
    assert.equal((await occ("user:list", "--output=json")).stdout.includes('"eve"'), false);
  });

  it("group:delete deletes a group but never admin, as ownCloud's", async () => {
    const admin = await occ("group:delete", "admin");
    assert.equal(admin.code, 1);
    assert.match(admin.stderr, /^The specified group could not be deleted\. /);
    const deleted = await occ("group:delete", "writers");
    assert.deepEqual([deleted.code, deleted.stdout], [0, "The specified group was deleted\n"]);
    const missing = await occ("group:delete", "writers");
    assert.deepEqual([missing.code, missing.stderr], [1, "Group does not exist\n"]);
  });

  it("oauth2:add-client --allowed-groups, oauth2:modify-client NAME allowed-groups and list-clients; the host setting is a new client's default", async () => {
    const id = (n: string) => n.repeat(32);
    const added = await occ(
      "oauth2:add-client",
      "Wiki",
      id("w"),
      id("s"),
      "https://wiki.example.com/cb",
      "--allowed-groups=editors",
    );
    assert.equal(added.code, 0, added.stderr);
    const unknown = await occ(
      "oauth2:add-client",
      "Blog",
      id("b"),
      id("s"),
      "https://blog.example.com/cb",
      "--allowed-groups=ghosts",
    );
    assert.deepEqual([unknown.code, unknown.stderr], [1, "unknown group(s): ghosts; create them first (./occ group:add)\n"]);
    const listed = JSON.parse((await occ("oauth2:list-clients", "--output=json")).stdout);
    assert.equal(listed.Wiki["allowed-groups"], "editors");
    assert.equal("allowed-groups" in listed["Desktop Client"], false, "a client everyone may use lists no key, as ownCloud's");

    assert.equal((await occ("oauth2:modify-client", "Wiki", "allowed-groups", "admin, editors")).code, 0);
    assert.equal(JSON.parse((await occ("oauth2:list-clients", "--output=json")).stdout).Wiki["allowed-groups"], "admin,editors");
    assert.equal((await occ("oauth2:modify-client", "Wiki", "allowed-groups", "")).code, 0);
    assert.equal("allowed-groups" in JSON.parse((await occ("oauth2:list-clients", "--output=json")).stdout).Wiki, false);

    assert.equal((await occ("config:system:set", "oauth2.new_clients_allowed_groups", "--value=admin")).code, 0);
    assert.equal((await occ("oauth2:add-client", "Intranet", id("i"), id("s"), "https://intranet.example.com/cb")).code, 0);
    assert.equal(JSON.parse((await occ("oauth2:list-clients", "--output=json")).stdout).Intranet["allowed-groups"], "admin");
    assert.equal((await occ("config:system:set", "oauth2.new_clients_allowed_groups", "--value=")).code, 0);
  });
});
