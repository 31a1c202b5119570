import type { User } from "../../../src/accounts/ports.js";
import { ADMIN_GROUP } from "../../../src/groups/domain/group-id.js";

/** A user row as the memory stores keep it: the user without the derived `isAdmin`, and its columns. */
export interface MemoryUserRow {
  user: Omit<User, "isAdmin">;
  passwordHash: string | null;
  emailKey: string | null;
  lastLoginAt: number | null;
}

/**
 * The rows the memory stores share, as the tables of one database (fosite's storage/memory.go keeps
 * one struct of maps the same way): users and groups, what references a user, and the cascades a
 * user's deletion runs (ON DELETE CASCADE in src/storage/migrations).
 */
export class MemoryTables {
  readonly users = new Map<string, MemoryUserRow>();
  readonly deletedUids = new Map<string, number>();
  /** The groups by id; `admin` exists from the start, as migration 0026 creates it. */
  readonly groups = new Map<string, { displayName: string; createdAt: number }>([
    [ADMIN_GROUP, { displayName: ADMIN_GROUP, createdAt: 0 }],
  ]);
  /** Group id → its members' uids. */
  readonly members = new Map<string, Set<string>>();
  /** The OAuth clients' names by internal id (table oauth2_clients, memory/oauth-clients.ts). */
  readonly clientNames = new Map<number, string>();
  /** The groups OAuth clients admit: client id → group ids (table oauth2_client_groups). */
  readonly clientGroups = new Map<number, Set<string>>();
  private readonly cascades: Array<(uid: string) => void> = [];
  private nextId = 1;

  /** A fresh id for an auto-increment column: increasing across every table, as a sequence is within one. */
  id(): number {
    return this.nextId++;
  }

  /** Rejects as a foreign key does when the user has no row. */
  requireUser(uid: string): void {
    if (!this.users.has(uid)) throw new Error(`foreign key: no user ${uid}`);
  }

  isAdmin(uid: string): boolean {
    return this.members.get(ADMIN_GROUP)?.has(uid) ?? false;
  }

  userOf(row: MemoryUserRow): User {
    return { ...row.user, isAdmin: this.isAdmin(row.user.uid) };
  }

  /** Runs `drop(uid)` when a user is deleted, as a foreign key with ON DELETE CASCADE does. */
  onUserDeleted(drop: (uid: string) => void): void {
    this.cascades.push(drop);
  }

  deleteUser(uid: string): void {
    this.users.delete(uid);
    for (const members of this.members.values()) members.delete(uid);
    for (const drop of this.cascades) drop(uid);
  }
}
