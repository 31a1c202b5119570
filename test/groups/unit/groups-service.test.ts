import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UserDirectory } from "../../../src/accounts/users.js";
import { ManualClock } from "../../../src/clock.js";
import { ADMIN_GROUP } from "../../../src/groups/domain/group-id.js";
import { GroupError } from "../../../src/groups/errors.js";
import { Groups } from "../../../src/groups/service.js";
import { RecordedTrail } from "../../support/memory/audit-trail.js";
import { MemoryGroupStore } from "../../support/memory/groups.js";
import { memoryStores } from "../../support/memory/index.js";

function groupError(code: string) {
  return (error: unknown) => error instanceof GroupError && error.code === code;
}

async function setup() {
  const stores = memoryStores();
  const clock = new ManualClock();
  const trail = new RecordedTrail();
  const users = new UserDirectory(stores.users, stores.sessions, clock);
  const groups = new Groups(stores.groups, users, clock, trail);
  for (const uid of ["alice", "bob"]) await users.create({ uid });
  return { stores, users, groups, trail };
}

describe("groups: the rules of the Groups service, on memory stores", () => {
  it("an invalid id is refused before anything is written; the display name defaults to the id", async () => {
    const { groups, stores, trail } = await setup();
    await assert.rejects(groups.create(" padded"), groupError("invalid_gid"));
    assert.deepEqual(await stores.groups.list("padded"), []);
    assert.deepEqual(await groups.create("staff", "   "), { gid: "staff", displayName: "staff" });
    assert.deepEqual(await groups.create("ops", " Operations "), { gid: "ops", displayName: "Operations" });
    assert.deepEqual(trail.kinds(), ["group.created", "group.created"]);
  });

  it("creating a group that exists is refused as group_exists and records nothing", async () => {
    const { groups, trail } = await setup();
    await groups.create("staff");
    await assert.rejects(groups.create("staff"), groupError("group_exists"));
    assert.deepEqual(trail.kinds(), ["group.created"]);
  });

  it("admin is never deleted; an unknown group is no_such_group; one an application admits names it", async () => {
    const { groups, stores } = await setup();
    await assert.rejects(groups.delete(ADMIN_GROUP), groupError("admin_undeletable"));
    await assert.rejects(groups.delete("ghosts"), groupError("no_such_group"));
    await groups.create("staff");
    stores.tables.clientNames.set(1, "Wiki");
    stores.tables.clientGroups.set(1, new Set(["staff"]));
    await assert.rejects(groups.delete("staff"), (error: unknown) => {
      assert.ok(error instanceof GroupError && error.code === "group_in_use");
      assert.match(error.message, /"Wiki"/);
      return true;
    });
    assert.ok(await groups.find("staff"));
  });

  it("membership changes need an existing group and user, and say when nothing changed", async () => {
    const { groups, trail } = await setup();
    await groups.create("staff");
    await assert.rejects(groups.addMember("ghosts", "alice"), groupError("no_such_group"));
    await assert.rejects(groups.addMember("staff", "nobody"), (e: unknown) => (e as { code?: string }).code === "no_such_user");
    assert.equal(await groups.addMember("staff", "alice"), "added");
    assert.equal(await groups.addMember("staff", "alice"), "already");
    assert.equal(await groups.removeMember("staff", "alice"), "removed");
    assert.equal(await groups.removeMember("staff", "alice"), "not_member");
    assert.deepEqual(trail.kinds(), ["group.created", "group.member_added", "group.member_removed"]);
  });

  it("joining and leaving admin are recorded as a promotion and a demotion", async () => {
    const { groups, trail } = await setup();
    await groups.addMember(ADMIN_GROUP, "alice");
    await groups.addMember(ADMIN_GROUP, "bob");
    await groups.removeMember(ADMIN_GROUP, "bob");
    assert.deepEqual(trail.kinds(), ["user.promoted", "user.promoted", "user.demoted"]);
  });

  it("the last administrator is neither removed from admin nor passes the removal guard", async () => {
    const { groups, trail } = await setup();
    await groups.addMember(ADMIN_GROUP, "alice");
    await assert.rejects(groups.removeMember(ADMIN_GROUP, "alice"), groupError("last_admin"));
    await assert.rejects(groups.refuseRemovingLastAdmin("alice"), groupError("last_admin"));
    await groups.refuseRemovingLastAdmin("bob");
    assert.deepEqual(await groups.groupsOf("alice"), [ADMIN_GROUP]);
    assert.deepEqual(trail.kinds(), ["user.promoted"], "the refusal records nothing");
  });

  it("members of an unknown group is refused, not an empty list", async () => {
    const { groups } = await setup();
    await assert.rejects(groups.members("ghosts"), groupError("no_such_group"));
  });

  it("an allowed-groups list names every unknown or invalid id; an empty text is the empty list", async () => {
    const { groups } = await setup();
    await groups.create("staff");
    assert.deepEqual(await groups.existingGroupList(""), []);
    assert.deepEqual(await groups.existingGroupList(" staff , staff,admin"), ["staff", ADMIN_GROUP]);
    await assert.rejects(groups.existingGroupList("staff, ghosts, bad\tid"), (error: unknown) => {
      assert.ok(error instanceof GroupError && error.code === "unknown_groups");
      assert.match(error.message, /ghosts, bad\tid/);
      return true;
    });
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
