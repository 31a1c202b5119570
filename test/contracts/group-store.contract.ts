import assert from "node:assert/strict";
import { ADMIN_GROUP } from "../../src/groups/domain/group-id.js";
import type { Contract } from "./harness.js";

/** groups/ports.ts GroupStore, case by case. */
export const groupStoreContract: Contract = {
  "insert refuses an id that exists and writes nothing; find of an absent group is undefined": async (s) => {
    const gid = s.unique("grp");
    assert.equal(await s.groups.insert({ gid, displayName: "First" }, 1), true);
    assert.equal(await s.groups.insert({ gid, displayName: "Second" }, 2), false);
    assert.deepEqual(await s.groups.find(gid), { gid, displayName: "First" });
    assert.equal(await s.groups.find(s.unique("absent")), undefined);
  },

  "list matches ids containing the search whatever its case, % and _ as themselves, ordered by id, with member counts": async (
    s,
  ) => {
    const p = s.unique("lst");
    for (const gid of [`${p}-b`, `${p}-a`, `${p}xa`]) await s.groups.insert({ gid, displayName: gid }, 1);
    await s.groups.addMember(`${p}-b`, await s.user());
    await s.groups.addMember(`${p}-b`, await s.user());
    assert.deepEqual(await s.groups.list(p.toUpperCase()), [
      { gid: `${p}-a`, displayName: `${p}-a`, memberCount: 0 },
      { gid: `${p}-b`, displayName: `${p}-b`, memberCount: 2 },
      { gid: `${p}xa`, displayName: `${p}xa`, memberCount: 0 },
    ]);
    assert.deepEqual(await s.groups.list(`${p}_a`), [], "_ is not a wildcard");
    assert.deepEqual(await s.groups.list(`${p}%`), [], "% is not a wildcard");
    const all = (await s.groups.list("")).map((g) => g.gid);
    assert.ok(all.includes(`${p}-a`) && all.includes(ADMIN_GROUP), "an empty search lists every group");
  },

  "delete removes the group with its memberships; a second delete finds no such group": async (s) => {
    const gid = s.unique("del");
    const uid = await s.user();
    await s.groups.insert({ gid, displayName: gid }, 1);
    await s.groups.addMember(gid, uid);
    assert.deepEqual(await s.groups.delete(gid), { deleted: true });
    assert.equal(await s.groups.find(gid), undefined);
    assert.deepEqual(await s.groups.groupsOf(uid), []);
    assert.deepEqual(await s.groups.delete(gid), { deleted: false, reason: "no_such_group" });
  },

  "delete is refused while OAuth clients admit the group, naming them in order, and writes nothing": async (s) => {
    const gid = s.unique("used");
    const uid = await s.user();
    await s.groups.insert({ gid, displayName: gid }, 1);
    await s.groups.addMember(gid, uid);
    const [first, second] = [s.unique("Client A "), s.unique("Client B ")];
    await s.admitGroup(second, gid);
    await s.admitGroup(first, gid);
    assert.deepEqual(await s.groups.delete(gid), { deleted: false, reason: "in_use", clients: [first, second] });
    assert.deepEqual(await s.groups.find(gid), { gid, displayName: gid });
    assert.deepEqual(await s.groups.groupsOf(uid), [gid]);
  },

  "members are ordered by uid with their display names; an unknown group has none": async (s) => {
    const gid = s.unique("mem");
    await s.groups.insert({ gid, displayName: gid }, 1);
    const p = s.unique("m");
    const second = await s.user({ uid: `${p}b`, displayName: "Bea" });
    const first = await s.user({ uid: `${p}a`, displayName: "Ann" });
    await s.groups.addMember(gid, second);
    await s.groups.addMember(gid, first);
    assert.deepEqual(await s.groups.members(gid), [
      { uid: first, displayName: "Ann" },
      { uid: second, displayName: "Bea" },
    ]);
    assert.deepEqual(await s.groups.members(s.unique("nogroup")), []);
  },

  "groupsOf is ordered; groupsOfUsers answers for a page of users and leaves out those in no group": async (s) => {
    const p = s.unique("of");
    for (const gid of [`${p}-z`, `${p}-a`]) await s.groups.insert({ gid, displayName: gid }, 1);
    const [member, loner] = [await s.user(), await s.user()];
    await s.groups.addMember(`${p}-z`, member);
    await s.groups.addMember(`${p}-a`, member);
    assert.deepEqual(await s.groups.groupsOf(member), [`${p}-a`, `${p}-z`]);
    const byUser = await s.groups.groupsOfUsers([member, loner]);
    assert.deepEqual([...byUser.entries()], [[member, [`${p}-a`, `${p}-z`]]]);
  },

  "addMember answers false for an existing membership and rejects an unknown user or group": async (s) => {
    const gid = s.unique("add");
    const uid = await s.user();
    await s.groups.insert({ gid, displayName: gid }, 1);
    assert.equal(await s.groups.addMember(gid, uid), true);
    assert.equal(await s.groups.addMember(gid, uid), false);
    await assert.rejects(s.groups.addMember(gid, s.unique("nobody")));
    await assert.rejects(s.groups.addMember(s.unique("nogroup"), uid));
    assert.deepEqual(await s.groups.groupsOf(uid), [gid]);
  },

  "removeMember removes a membership once, then finds it not_member": async (s) => {
    const gid = s.unique("rm");
    const uid = await s.user();
    await s.groups.insert({ gid, displayName: gid }, 1);
    await s.groups.addMember(gid, uid);
    assert.equal(await s.groups.removeMember(gid, uid), "removed");
    assert.equal(await s.groups.removeMember(gid, uid), "not_member");
    assert.deepEqual(await s.groups.members(gid), []);
  },

  "the only member of admin is the last admin and is not removed; with a second admin the first can go": async (s) => {
    const first = await s.user({ isAdmin: true });
    assert.equal((await s.users.find(first))?.isAdmin, true, "a user inserted as admin is a member of admin");
    assert.equal(await s.groups.isLastAdmin(first), true);
    assert.equal(await s.groups.removeMember(ADMIN_GROUP, first), "last_admin");
    assert.deepEqual(await s.groups.groupsOf(first), [ADMIN_GROUP], "nothing was written");
    const second = await s.user();
    await s.groups.addMember(ADMIN_GROUP, second);
    assert.equal((await s.users.find(second))?.isAdmin, true, "isAdmin is read from the membership");
    assert.equal(await s.groups.isLastAdmin(first), false);
    assert.equal(await s.groups.removeMember(ADMIN_GROUP, first), "removed");
    assert.equal((await s.users.find(first))?.isAdmin, false);
    assert.equal(await s.groups.isLastAdmin(second), true);
  },

  "a user's deletion removes their memberships": async (s) => {
    const gid = s.unique("cascade");
    const [gone, stays] = [await s.user(), await s.user()];
    await s.groups.insert({ gid, displayName: gid }, 1);
    await s.groups.addMember(gid, gone);
    await s.groups.addMember(gid, stays);
    await s.users.delete(gone, 2);
    assert.deepEqual(
      (await s.groups.members(gid)).map((m) => m.uid),
      [stays],
    );
    assert.deepEqual(await s.groups.list(gid), [{ gid, displayName: gid, memberCount: 1 }]);
  },
};
