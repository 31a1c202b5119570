import { ADMIN_GROUP } from "../../../src/groups/domain/group-id.js";
import type { Group, GroupDeletion, GroupMember, GroupStore, GroupSummary, RemovalOutcome } from "../../../src/groups/ports.js";
import type { MemoryTables } from "./tables.js";

/**
 * groups/ports.ts GroupStore in memory (src/storage/stores/groups/group-store.ts is the SQL one). OAuth grants are
 * not kept here, so a removal has no grant to end; the clients that admit a group are
 * `tables.clientGroups`.
 */
export class MemoryGroupStore implements GroupStore {
  constructor(private readonly tables: MemoryTables) {}

  async insert(group: Group, createdAt: number): Promise<boolean> {
    if (this.tables.groups.has(group.gid)) return false;
    this.tables.groups.set(group.gid, { displayName: group.displayName, createdAt });
    return true;
  }

  async find(gid: string): Promise<Group | undefined> {
    const group = this.tables.groups.get(gid);
    return group && { gid, displayName: group.displayName };
  }

  async list(search: string): Promise<GroupSummary[]> {
    const needle = search.toLowerCase();
    return [...this.tables.groups.entries()]
      .filter(([gid]) => gid.toLowerCase().includes(needle))
      .sort(([a], [b]) => compare(a, b))
      .map(([gid, group]) => ({ gid, displayName: group.displayName, memberCount: this.membersOf(gid).size }));
  }

  async delete(gid: string): Promise<GroupDeletion> {
    const clients = [...this.tables.clientGroups.entries()]
      .filter(([, gids]) => gids.has(gid))
      .map(([id]) => this.tables.clientNames.get(id) ?? String(id))
      .sort(compare);
    if (clients.length > 0) return { deleted: false, reason: "in_use", clients };
    this.tables.members.delete(gid);
    return this.tables.groups.delete(gid) ? { deleted: true } : { deleted: false, reason: "no_such_group" };
  }

  async members(gid: string): Promise<GroupMember[]> {
    return [...this.membersOf(gid)].sort(compare).flatMap((uid) => {
      const row = this.tables.users.get(uid);
      return row ? [{ uid, displayName: row.user.displayName }] : [];
    });
  }

  async groupsOf(uid: string): Promise<string[]> {
    return [...this.tables.members.entries()]
      .filter(([, members]) => members.has(uid))
      .map(([gid]) => gid)
      .sort(compare);
  }

  async groupsOfUsers(uids: readonly string[]): Promise<Map<string, string[]>> {
    const byUser = new Map<string, string[]>();
    for (const uid of [...uids].sort(compare)) {
      const gids = await this.groupsOf(uid);
      if (gids.length > 0) byUser.set(uid, gids);
    }
    return byUser;
  }

  async addMember(gid: string, uid: string): Promise<boolean> {
    if (!this.tables.groups.has(gid)) throw new Error(`foreign key: no group ${gid}`);
    this.tables.requireUser(uid);
    const members = this.membersOf(gid);
    if (members.has(uid)) return false;
    members.add(uid);
    this.tables.members.set(gid, members);
    return true;
  }

  async removeMember(gid: string, uid: string): Promise<RemovalOutcome> {
    if (gid === ADMIN_GROUP && (await this.isLastAdmin(uid))) return "last_admin";
    return this.tables.members.get(gid)?.delete(uid) ? "removed" : "not_member";
  }

  async isLastAdmin(uid: string): Promise<boolean> {
    const admins = this.membersOf(ADMIN_GROUP);
    return admins.size === 1 && admins.has(uid);
  }

  private membersOf(gid: string): Set<string> {
    return this.tables.members.get(gid) ?? new Set();
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
