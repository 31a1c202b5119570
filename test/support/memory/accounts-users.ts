import { emailKey } from "../../../src/accounts/domain/email.js";
import type {
  ProfileChanges,
  User,
  UserInsertOutcome,
  UserListing,
  UserSearch,
  UserSearchPage,
  UserStore,
} from "../../../src/accounts/ports.js";
import { ADMIN_GROUP } from "../../../src/groups/domain/group-id.js";
import type { MemoryTables, MemoryUserRow } from "./tables.js";

function byUid(a: MemoryUserRow, b: MemoryUserRow): number {
  return a.user.uid < b.user.uid ? -1 : a.user.uid > b.user.uid ? 1 : 0;
}

/** accounts/ports.ts UserStore in memory (src/storage/stores/accounts/account-user-store.ts is the SQL one). */
export class MemoryUserStore implements UserStore {
  constructor(protected readonly tables: MemoryTables) {}

  async insert(user: User, passwordHash: string | null, options: { reuseDeletedUid: boolean }): Promise<UserInsertOutcome> {
    if (!options.reuseDeletedUid && this.tables.deletedUids.has(user.uid)) return "uid_of_deleted_user";
    if (this.tables.users.has(user.uid)) throw new Error(`unique: user ${user.uid} exists`);
    const key = user.email === null ? null : emailKey(user.email);
    if (key !== null && [...this.tables.users.values()].some((row) => row.emailKey === key)) {
      throw new Error("unique: the address is held");
    }
    this.tables.deletedUids.delete(user.uid);
    const { isAdmin, ...columns } = user;
    this.tables.users.set(user.uid, { user: { ...columns }, passwordHash, emailKey: key, lastLoginAt: null });
    if (isAdmin) this.membersOfAdmin().add(user.uid);
    return "inserted";
  }

  async emailHolder(key: string, exceptUid?: string): Promise<string | undefined> {
    const others = [...this.tables.users.values()].filter((row) => row.user.uid !== exceptUid).sort(byUid);
    const keyed = others.find((row) => row.emailKey === key);
    if (keyed) return keyed.user.uid;
    return others.find((row) => row.emailKey === null && row.user.email !== null && emailKey(row.user.email) === key)?.user.uid;
  }

  async find(uid: string): Promise<User | undefined> {
    const row = this.tables.users.get(uid);
    return row && this.tables.userOf(row);
  }

  async findWithPasswordHash(uid: string): Promise<{ user: User; passwordHash: string | null } | undefined> {
    const row = this.tables.users.get(uid);
    return row && { user: this.tables.userOf(row), passwordHash: row.passwordHash };
  }

  async list(): Promise<User[]> {
    return this.sorted().map((row) => this.tables.userOf(row));
  }

  async search(search: UserSearch): Promise<UserSearchPage> {
    const text = search.text?.trim().toLowerCase() ?? "";
    const matching = this.sorted().filter(
      (row) =>
        text === "" || [row.user.uid, row.user.displayName, row.user.email ?? ""].some((v) => v.toLowerCase().includes(text)),
    );
    return {
      users: matching.slice(search.offset, search.offset + search.limit).map((row) => this.listingOf(row)),
      total: matching.length,
    };
  }

  async findListing(uid: string): Promise<UserListing | undefined> {
    const row = this.tables.users.get(uid);
    return row && this.listingOf(row);
  }

  async count(): Promise<number> {
    return this.tables.users.size;
  }

  async setPasswordHash(uid: string, passwordHash: string): Promise<void> {
    const row = this.tables.users.get(uid);
    if (row) row.passwordHash = passwordHash;
  }

  async setEnabled(uid: string, enabled: boolean): Promise<void> {
    const row = this.tables.users.get(uid);
    if (row) row.user = { ...row.user, enabled };
  }

  async updateProfile(uid: string, changes: ProfileChanges): Promise<void> {
    const row = this.tables.users.get(uid);
    if (!row) return;
    const next = { ...row.user };
    let key = row.emailKey;
    if (changes.displayName !== undefined) next.displayName = changes.displayName;
    if (changes.email !== undefined) {
      key = changes.email === null ? null : emailKey(changes.email);
      const held = key !== null && [...this.tables.users.values()].some((other) => other !== row && other.emailKey === key);
      if (held) throw new Error("unique: the address is held");
      next.email = changes.email;
      next.emailVerified = changes.emailVerified === true;
    } else if (changes.emailVerified !== undefined) {
      next.emailVerified = changes.emailVerified;
    }
    row.user = next;
    row.emailKey = key;
  }

  async delete(uid: string, at: number): Promise<boolean> {
    if (!this.tables.users.has(uid)) return false;
    this.tables.deleteUser(uid);
    this.tables.deletedUids.set(uid, at);
    return true;
  }

  private sorted(): MemoryUserRow[] {
    return [...this.tables.users.values()].sort(byUid);
  }

  private listingOf(row: MemoryUserRow): UserListing {
    return { ...this.tables.userOf(row), lastLoginAt: row.lastLoginAt };
  }

  private membersOfAdmin(): Set<string> {
    let members = this.tables.members.get(ADMIN_GROUP);
    if (!members) {
      members = new Set();
      this.tables.members.set(ADMIN_GROUP, members);
    }
    return members;
  }
}
