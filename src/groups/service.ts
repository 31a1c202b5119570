import type { AccountErrorCode } from "../accounts/errors.js";
import type { UserDirectory } from "../accounts/users.js";
import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import { type Refusal, type Result, succeeded } from "../refusal.js";
import { ADMIN_GROUP, parseGroupList, validGid } from "./domain/group-id.js";
import { type GroupErrorCode, type GroupRefusal, type GroupResult, groupRefusal } from "./errors.js";
import type { Group, GroupMember, GroupStore, GroupSummary } from "./ports.js";

/** A membership change's outcome: refused by the group's rules, or because the group or the user does not exist. */
export type MembershipResult<T> = Result<T, GroupErrorCode | AccountErrorCode>;

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
  async create(gid: string, displayName?: string): Promise<GroupResult<Group>> {
    if (!validGid(gid)) return groupRefusal("invalid_gid", "invalidGid", { gid });
    const group = { gid, displayName: displayName?.trim() || gid };
    if (!(await this.store.insert(group, this.clock.nowSeconds()))) {
      return groupRefusal("group_exists", "groupExists", { gid });
    }
    this.audit.record("group.created", { subject: { type: "group", id: gid }, detail: { display_name: group.displayName } });
    return succeeded(group);
  }

  find(gid: string): Promise<Group | undefined> {
    return this.store.find(gid);
  }

  /** The group, or the refusal `no_such_group`. */
  async require(gid: string): Promise<GroupResult<Group>> {
    const group = await this.store.find(gid);
    return group ? succeeded(group) : groupRefusal("no_such_group", "noSuchGroup", { gid });
  }

  /** As ownCloud's Group::delete: `admin` never goes; nor does a group an application admits. */
  async delete(gid: string): Promise<GroupResult<void>> {
    if (gid === ADMIN_GROUP) return groupRefusal("admin_undeletable", "adminUndeletable");
    const outcome = await this.store.delete(gid);
    if (outcome.deleted) {
      this.audit.record("group.deleted", { subject: { type: "group", id: gid } });
      return succeeded(undefined);
    }
    if (outcome.reason === "no_such_group") return groupRefusal("no_such_group", "noSuchGroup", { gid });
    return groupRefusal("group_in_use", "groupInUse", { gid, clients: outcome.clients.map((c) => `"${c}"`).join(", ") });
  }

  /** Groups whose id contains `search` (ownCloud's `group:list [search-pattern]`), ordered by id. */
  list(search = ""): Promise<GroupSummary[]> {
    return this.store.list(search);
  }

  async members(gid: string): Promise<GroupResult<GroupMember[]>> {
    const group = await this.require(gid);
    return group.ok ? succeeded(await this.store.members(gid)) : group;
  }

  groupsOf(uid: string): Promise<string[]> {
    return this.store.groupsOf(uid);
  }

  groupsOfUsers(uids: readonly string[]): Promise<Map<string, string[]>> {
    return uids.length === 0 ? Promise.resolve(new Map()) : this.store.groupsOfUsers(uids);
  }

  /** "added", or "already" when the user was a member. The group and the user must exist. */
  async addMember(gid: string, uid: string): Promise<MembershipResult<"added" | "already">> {
    const refusal = await this.refusalOfMembership(gid, uid);
    if (refusal) return refusal;
    if (!(await this.store.addMember(gid, uid))) return succeeded("already");
    // Joining `admin` is the administrator role: one event, the promotion.
    this.audit.record(gid === ADMIN_GROUP ? "user.promoted" : "group.member_added", { uid, subject: { type: "group", id: gid } });
    return succeeded("added");
  }

  /**
   * "removed" or "not_member"; the last administrator is never removed from `admin`. Leaving the
   * last group an application admits ends the user's grants there (GroupStore.removeMember).
   */
  async removeMember(gid: string, uid: string): Promise<MembershipResult<"removed" | "not_member">> {
    const refusal = await this.refusalOfMembership(gid, uid);
    if (refusal) return refusal;
    const outcome = await this.store.removeMember(gid, uid);
    if (outcome === "last_admin") return groupRefusal("last_admin", "lastAdmin", { uid });
    if (outcome === "removed") {
      this.audit.record(gid === ADMIN_GROUP ? "user.demoted" : "group.member_removed", {
        uid,
        subject: { type: "group", id: gid },
      });
    }
    return succeeded(outcome);
  }

  /** The refusal of a membership change when the group or the user does not exist, else undefined. */
  private async refusalOfMembership(gid: string, uid: string): Promise<Refusal<GroupErrorCode | AccountErrorCode> | undefined> {
    const group = await this.require(gid);
    if (!group.ok) return group;
    const user = await this.users.require(uid);
    return user.ok ? undefined : user;
  }

  /** Refuses deleting or disabling the last administrator (UserDirectory's removal guard); undefined allows it. */
  async refuseRemovingLastAdmin(uid: string): Promise<GroupRefusal | undefined> {
    return (await this.store.isLastAdmin(uid)) ? groupRefusal("last_admin", "lastAdmin", { uid }) : undefined;
  }

  /**
   * A comma-separated list of existing group ids (an application's allowed groups): trimmed and
   * without duplicates; an unknown or invalid id is refused, naming every one. "" is the empty list.
   */
  async existingGroupList(text: string): Promise<GroupResult<string[]>> {
    const gids = parseGroupList(text);
    const unknown: string[] = [];
    for (const gid of gids) if (!validGid(gid) || !(await this.store.find(gid))) unknown.push(gid);
    if (unknown.length > 0) return groupRefusal("unknown_groups", "unknownGroups", { gids: unknown.join(", ") });
    return succeeded(gids);
  }
}
