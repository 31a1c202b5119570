/**
 * The storage groups need (src/storage/stores/groups/group-store.ts implements it): groups as ownCloud keeps them
 * (`groups`, `group_user`), and the groups an OAuth client admits. Being an administrator is
 * membership of the group `admin` (domain/group-id.ts ADMIN_GROUP); the user row read on every
 * request derives it in the same statement (accounts/ports.ts `User.isAdmin`).
 */

export interface Group {
  gid: string;
  displayName: string;
}

export interface GroupSummary extends Group {
  memberCount: number;
}

export interface GroupMember {
  uid: string;
  displayName: string;
}

/** What a membership removal did. */
export type RemovalOutcome =
  | "removed"
  | "not_member"
  /** The member is the last of `admin`: nothing was written. */
  | "last_admin";

/** What a group deletion did. */
export type GroupDeletion =
  | { deleted: true }
  | { deleted: false; reason: "no_such_group" }
  /** OAuth clients admit this group (their names): nothing was written. */
  | { deleted: false; reason: "in_use"; clients: string[] };

export interface GroupStore {
  /** Inserts the group; false, writing nothing, when a group of that id exists. */
  insert(group: Group, createdAt: number): Promise<boolean>;
  find(gid: string): Promise<Group | undefined>;
  /** Every group whose id contains `search` (case-insensitive; "" for all), ordered by id, with its member count. */
  list(search: string): Promise<GroupSummary[]>;
  /**
   * Deletes the group with its memberships, in one transaction; refused (nothing written) while an
   * OAuth client admits it, so no grant depends on it when it goes.
   */
  delete(gid: string): Promise<GroupDeletion>;
  /** The members, ordered by uid, with their display names; [] for an unknown group. */
  members(gid: string): Promise<GroupMember[]>;
  /** The ids of the user's groups, ordered. */
  groupsOf(uid: string): Promise<string[]>;
  /** The groups of each of `uids`, for a page of users (absent: none). */
  groupsOfUsers(uids: readonly string[]): Promise<Map<string, string[]>>;
  /** Adds the membership; false when it existed. The group and the user must exist (foreign keys). */
  addMember(gid: string, uid: string): Promise<boolean>;
  /**
   * In one transaction: removes the membership, unless it is the last member of `admin`
   * (`last_admin`, nothing written; concurrent removals of the last two are serialized on
   * PostgreSQL by locking the group's row, on SQLite by its single writer), and deletes the grants
   * (their codes and tokens cascade) the user holds at OAuth clients that admit groups of which
   * the user is now in none, so their refresh and access tokens stop at once on every node.
   */
  removeMember(gid: string, uid: string): Promise<RemovalOutcome>;
  /** Whether `uid` is the only member of `admin` (its deletion would leave no administrator). */
  isLastAdmin(uid: string): Promise<boolean>;
}
