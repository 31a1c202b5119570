import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UserDirectory } from "../../../src/accounts/users.js";
import { ManualClock } from "../../../src/clock.js";
import { ADMIN_GROUP } from "../../../src/groups/domain/group-id.js";
import { Groups } from "../../../src/groups/service.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { MemoryGroupStore } from "../../support/memory/groups.js";
import { memoryStores } from "../../support/memory/index.js";
import { accepted, assertRefused } from "../../support/results.js";

async function setup() {
  const stores = memoryStores();
  const clock = new ManualClock();
  const trail = new RecordedTrail();
  const users = new UserDirectory(stores.users, stores.sessions, clock);
  const groups = new Groups(stores.groups, users, clock, trail);
  for (const uid of ["alice", "bob"]) accepted(await users.create({ uid }));
  return { stores, users, groups, trail };
}

describe("groups: the rules of the Groups service, on memory stores", () => {
  it("an invalid id is refused before anything is written; the display name defaults to the id", async () => {
    const { groups, stores, trail } = await setup();
    assertRefused(await groups.create(" padded"), "invalid_gid");
    assert.deepEqual(await stores.groups.list("padded"), []);
    assert.deepEqual(accepted(await groups.create("staff", "   ")), { gid: "staff", displayName: "staff" });
    assert.deepEqual(accepted(await groups.create("ops", " Operations ")), { gid: "ops", displayName: "Operations" });
    assert.deepEqual(trail.kinds(), ["group.created", "group.created"]);
  });

  it("creating a group that exists is refused as group_exists and records nothing", async () => {
    const { groups, trail } = await setup();
    accepted(await groups.create("staff"));
    assertRefused(await groups.create("staff"), "group_exists");
    assert.deepEqual(trail.kinds(), ["group.created"]);
  });

  it("admin is never deleted; an unknown group is no_such_group; one an application admits names it", async () => {
    const { groups, stores } = await setup();
    assertRefused(await groups.delete(ADMIN_GROUP), "admin_undeletable");
    assertRefused(await groups.delete("ghosts"), "no_such_group");
    accepted(await groups.create("staff"));
    stores.tables.clientNames.set(1, "Wiki");
    stores.tables.clientGroups.set(1, new Set(["staff"]));
    assert.match(assertRefused(await groups.delete("staff"), "group_in_use").message, /"Wiki"/);
    assert.ok(await groups.find("staff"));
  });

  it("membership changes need an existing group and user, and say when nothing changed", async () => {
    const { groups, trail } = await setup();
    accepted(await groups.create("staff"));
    assertRefused(await groups.addMember("ghosts", "alice"), "no_such_group");
    assertRefused(await groups.addMember("staff", "nobody"), "no_such_user");
    assert.equal(accepted(await groups.addMember("staff", "alice")), "added");
    assert.equal(accepted(await groups.addMember("staff", "alice")), "already");
    assert.equal(accepted(await groups.removeMember("staff", "alice")), "removed");
    assert.equal(accepted(await groups.removeMember("staff", "alice")), "not_member");
    assert.deepEqual(trail.kinds(), ["group.created", "group.member_added", "group.member_removed"]);
  });

  it("joining and leaving admin are recorded as a promotion and a demotion", async () => {
    const { groups, trail } = await setup();
    accepted(await groups.addMember(ADMIN_GROUP, "alice"));
    accepted(await groups.addMember(ADMIN_GROUP, "bob"));
    accepted(await groups.removeMember(ADMIN_GROUP, "bob"));
    assert.deepEqual(trail.kinds(), ["user.promoted", "user.promoted", "user.demoted"]);
  });

  it("the last administrator is neither removed from admin nor passes the removal guard", async () => {
    const { groups, trail } = await setup();
    accepted(await groups.addMember(ADMIN_GROUP, "alice"));
    assertRefused(await groups.removeMember(ADMIN_GROUP, "alice"), "last_admin");
    assertRefused(await groups.refuseRemovingLastAdmin("alice"), "last_admin");
    assert.equal(await groups.refuseRemovingLastAdmin("bob"), undefined);
    assert.deepEqual(await groups.groupsOf("alice"), [ADMIN_GROUP]);
    assert.deepEqual(trail.kinds(), ["user.promoted"], "the refusal records nothing");
  });

  it("members of an unknown group is refused, not an empty list", async () => {
    const { groups } = await setup();
    assertRefused(await groups.members("ghosts"), "no_such_group");
  });

  it("an allowed-groups list names every unknown or invalid id; an empty text is the empty list", async () => {
    const { groups } = await setup();
    accepted(await groups.create("staff"));
    assert.deepEqual(accepted(await groups.existingGroupList("")), []);
    assert.deepEqual(accepted(await groups.existingGroupList(" staff , staff,admin")), ["staff", ADMIN_GROUP]);
    assert.match(
      assertRefused(await groups.existingGroupList("staff, ghosts, bad\tid"), "unknown_groups").message,
      /ghosts, bad\tid/,
    );
  });

  it("groupsOfUsers of no users answers without asking the store", async () => {
    const { stores, users } = await setup();
    const asked: string[][] = [];
    class CountingStore extends MemoryGroupStore {
      override groupsOfUsers(uids: readonly string[]) {
        asked.push([...uids]);
        return super.groupsOfUsers(uids);
      }
    }
    const groups = new Groups(new CountingStore(stores.tables), users, new ManualClock());
    assert.deepEqual(await groups.groupsOfUsers([]), new Map());
    assert.deepEqual(asked, []);
    await groups.groupsOfUsers(["alice"]);
    assert.deepEqual(asked, [["alice"]]);
  });
});
