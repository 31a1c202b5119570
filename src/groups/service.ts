import type { UserDirectory } from "../accounts/users.js";
import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import { ADMIN_GROUP, parseGroupList, validGid } from "./domain/group-id.js";
import { GroupError } from "./errors.js";
import type { Group, GroupMember, GroupStore, GroupSummary } from "./ports.js";

/**
 * Groups as ownCloud's occ `group:*` commands have them (owncloud/core core/Command/Group/*.php):
 * create, delete (never `admin`), list, members. The rules here; the store writes.
 */
export class Groups {
  constructor(
    private readonly store: GroupStore,
    private readonly users: UserDirectory,
    private readonly clock: Clock,
    private readonly audit: AuditTrail = NO_AUDIT,
  ) {}

  /** Refuses an invalid id and one that exists; the display name defaults to the id. */
  async create(gid: string, displayName?: string): Promise<Group> {
    if (!validGid(gid)) throw new GroupError("invalid_gid", "invalidGid", { gid });
    const group = { gid, displayName: displayName?.trim() || gid };
    if (!(await this.store.insert(group, this.clock.nowSeconds()))) {
      throw new GroupError("group_exists", "groupExists", { gid });
    }
    this.audit.record("group.created", { subject: { type: "group", id: gid }, detail: { display_name: group.displayName } });
    return group;
  }

  find(gid: string): Promise<Group | undefined> {
    return this.store.find(gid);
  }

  async require(gid: string): Promise<Group> {
    const group = await this.store.find(gid);
    if (!group) throw new GroupError("no_such_group", "noSuchGroup", { gid });
    return group;
  }

  /** As ownCloud's Group::delete: `admin` never goes; nor does a group an application admits. */
  async delete(gid: string): Promise<void> {
    if (gid === ADMIN_GROUP) throw new GroupError("admin_undeletable", "adminUndeletable");
    const outcome = await this.store.delete(gid);
    if (outcome.deleted) {
      this.audit.record("group.deleted", { subject: { type: "group", id: gid } });
      return;
    }
    if (outcome.reason === "no_such_group") throw new GroupError("no_such_group", "noSuchGroup", { gid });
    throw new GroupError("group_in_use", "groupInUse", { gid, clients: outcome.clients.map((c) => `"${c}"`).join(", ") });
  }

  /** Groups whose id contains `search` (ownCloud's `group:list [search-pattern]`), ordered by id. */
  list(search = ""): Promise<GroupSummary[]> {
    return this.store.list(search);
  }

  async members(gid: string): Promise<GroupMember[]> {
    await this.require(gid);
    return this.store.members(gid);
  }

  groupsOf(uid: string): Promise<string[]> {
    return this.store.groupsOf(uid);
  }

  groupsOfUsers(uids: readonly string[]): Promise<Map<string, string[]>> {
    return uids.length === 0 ? Promise.resolve(new Map()) : this.store.groupsOfUsers(uids);
  }

  /** "added", or "already" when the user was a member. The group and the user must exist. */
  async addMember(gid: string, uid: string): Promise<"added" | "already"> {
    await this.require(gid);
    await this.users.require(uid);
    if (!(await this.store.addMember(gid, uid))) return "already";
    // Joining `admin` is the administrator role: one event, the promotion.
    this.audit.record(gid === ADMIN_GROUP ? "user.promoted" : "group.member_added", { uid, subject: { type: "group", id: gid } });
    return "added";
  }

  /**
   * "removed" or "not_member"; the last administrator is never removed from `admin`. Leaving the
   * last group an application admits ends the user's grants there (GroupStore.removeMember).
   */
  async removeMember(gid: string, uid: string): Promise<"removed" | "not_member"> {
    await this.require(gid);
    await this.users.require(uid);
    const outcome = await this.store.removeMember(gid, uid);
    if (outcome === "last_admin") throw new GroupError("last_admin", "lastAdmin", { uid });
    if (outcome === "removed") {
      this.audit.record(gid === ADMIN_GROUP ? "user.demoted" : "group.member_removed", {
        uid,
        subject: { type: "group", id: gid },
      });
    }
    return outcome;
  }

  /** Refuses deleting or disabling the last administrator (UserDirectory's removal guard). */
  async refuseRemovingLastAdmin(uid: string): Promise<void> {
    if (await this.store.isLastAdmin(uid)) throw new GroupError("last_admin", "lastAdmin", { uid });
  }

  /**
   * A comma-separated list of existing group ids (an application's allowed groups): trimmed and
   * without duplicates; an unknown or invalid id is refused, naming every one. "" is the empty list.
   */
  async existingGroupList(text: string): Promise<string[]> {
    const gids = parseGroupList(text);
    const unknown: string[] = [];
    for (const gid of gids) if (!validGid(gid) || !(await this.store.find(gid))) unknown.push(gid);
    if (unknown.length > 0) throw new GroupError("unknown_groups", "unknownGroups", { gids: unknown.join(", ") });
    return gids;
  }
}
