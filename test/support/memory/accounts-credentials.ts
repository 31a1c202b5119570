import type {
  AppPassword,
  AppPasswordStore,
  AvatarStore,
  NewAppPasswordRecord,
  NewSessionRecord,
  PasswordConfirmationStore,
  PreferenceStore,
  SessionStore,
  SessionSummary,
  StoredAvatar,
  StoredPreference,
  StoredSession,
  UserRowPreference,
} from "../../../src/accounts/ports.js";
import type { MemoryTables } from "./tables.js";

interface SessionRow extends NewSessionRecord {
  confirmedAt: number | null;
}

/** accounts/ports.ts SessionStore in memory; its rows are shared with MemoryPasswordConfirmationStore. */
export class MemorySessionStore implements SessionStore {
  readonly rows = new Map<string, SessionRow>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => deleteWhere(this.rows, (row) => row.uid === uid));
  }

  async insert(session: NewSessionRecord): Promise<void> {
    if (this.rows.has(session.idHash)) throw new Error("unique: session exists");
    if (session.uid !== null) this.tables.requireUser(session.uid);
    this.rows.set(session.idHash, { ...session, confirmedAt: null });
    const user = session.uid === null ? undefined : this.tables.users.get(session.uid);
    if (user && (session.pending ?? null) === null) user.lastLoginAt = session.createdAt;
  }

  async findByIdHash(idHash: string): Promise<StoredSession | undefined> {
    const row = this.rows.get(idHash);
    if (!row) return undefined;
    const user = row.uid === null ? undefined : this.tables.users.get(row.uid);
    return {
      uid: row.uid,
      csrfToken: row.csrfToken,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      lastSeenAt: row.lastSeenAt,
      userEnabled: user?.user.enabled === true,
      pending: row.pending ?? null,
    };
  }

  async extend(idHash: string, expiresAt: number, lastSeenAt: number): Promise<void> {
    const row = this.rows.get(idHash);
    if (row) this.rows.set(idHash, { ...row, expiresAt, lastSeenAt });
  }

  async listLiveOf(uid: string, now: number): Promise<SessionSummary[]> {
    return [...this.rows.values()]
      .filter((row) => row.uid === uid && row.expiresAt > now)
      .map((row) => ({ id: row.idHash, userAgent: row.userAgent, createdAt: row.createdAt, lastSeenAt: row.lastSeenAt }));
  }

  async deleteOwn(uid: string, idHash: string): Promise<boolean> {
    return this.rows.get(idHash)?.uid === uid && this.rows.delete(idHash);
  }

  async delete(idHash: string): Promise<void> {
    this.rows.delete(idHash);
  }

  async deleteAllOf(uid: string, keepIdHash?: string): Promise<number> {
    return deleteWhere(this.rows, (row) => row.uid === uid && row.idHash !== keepIdHash);
  }

  async deleteExpired(now: number): Promise<number> {
    return deleteWhere(this.rows, (row) => row.expiresAt <= now);
  }
}

/** accounts/ports.ts PasswordConfirmationStore in memory, on the sessions of a MemorySessionStore. */
export class MemoryPasswordConfirmationStore implements PasswordConfirmationStore {
  constructor(private readonly sessions: MemorySessionStore) {}

  async confirmedAt(idHash: string): Promise<number | undefined> {
    const row = this.sessions.rows.get(idHash);
    return row && Math.max(row.createdAt, row.confirmedAt ?? row.createdAt);
  }

  async record(idHash: string, at: number): Promise<void> {
    const row = this.sessions.rows.get(idHash);
    if (row) row.confirmedAt = at;
  }
}

interface AppPasswordRow extends AppPassword {
  tokenHash: string;
}

/** accounts/ports.ts AppPasswordStore in memory. */
export class MemoryAppPasswordStore implements AppPasswordStore {
  private readonly rows = new Map<number, AppPasswordRow>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => deleteWhere(this.rows, (row) => row.uid === uid));
  }

  async insert(record: NewAppPasswordRecord): Promise<number> {
    this.tables.requireUser(record.uid);
    if ([...this.rows.values()].some((row) => row.tokenHash === record.tokenHash)) throw new Error("unique: token hash");
    const id = this.tables.id();
    this.rows.set(id, {
      id,
      uid: record.uid,
      name: record.name,
      createdAt: record.createdAt,
      lastUsedAt: null,
      tokenHash: record.tokenHash,
    });
    return id;
  }

  async listOf(uid: string): Promise<AppPassword[]> {
    return [...this.rows.values()]
      .filter((row) => row.uid === uid)
      .sort((a, b) => a.id - b.id)
      .map(({ tokenHash: _, ...password }) => password);
  }

  async deleteOwn(uid: string, id: number): Promise<boolean> {
    return this.rows.get(id)?.uid === uid && this.rows.delete(id);
  }

  async findByTokenHash(tokenHash: string): Promise<{ id: number; uid: string; lastUsedAt: number | null } | undefined> {
    const row = [...this.rows.values()].find((r) => r.tokenHash === tokenHash);
    return row && { id: row.id, uid: row.uid, lastUsedAt: row.lastUsedAt };
  }

  async markUsed(id: number, at: number): Promise<void> {
    const row = this.rows.get(id);
    if (!row) return;
    row.lastUsedAt = at;
    const user = this.tables.users.get(row.uid);
    if (user) user.lastLoginAt = at;
  }

  async deleteAllOf(uid: string): Promise<number> {
    return deleteWhere(this.rows, (row) => row.uid === uid);
  }

  /** Whether app password `id` is stored (what a foreign key to it sees). */
  has(id: number): boolean {
    return this.rows.has(id);
  }

  /** Deletes app password `id`, as a statement of another store does (login flows, memory/login-flow.ts). */
  deleteById(id: number): boolean {
    return this.rows.delete(id);
  }
}

/** accounts/ports.ts AvatarStore in memory. */
export class MemoryAvatarStore implements AvatarStore {
  private readonly avatars = new Map<string, StoredAvatar>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => this.avatars.delete(uid));
  }

  async put(uid: string, avatar: StoredAvatar): Promise<void> {
    this.tables.requireUser(uid);
    this.avatars.set(uid, { ...avatar, data: Buffer.from(avatar.data) });
  }

  async get(uid: string): Promise<StoredAvatar | undefined> {
    const avatar = this.avatars.get(uid);
    return avatar && { ...avatar, data: Buffer.from(avatar.data) };
  }

  async contentTypeOf(uid: string): Promise<string | undefined> {
    return this.avatars.get(uid)?.contentType;
  }

  async delete(uid: string): Promise<boolean> {
    return this.avatars.delete(uid);
  }
}

/** accounts/ports.ts PreferenceStore in memory. */
export class MemoryPreferenceStore implements PreferenceStore {
  /** `uid`, app and key joined by NUL → the value. */
  private readonly values = new Map<string, string>();

  constructor(private readonly tables: MemoryTables) {
    tables.onUserDeleted((uid) => deleteWhere(this.values, (_, key) => key.startsWith(`${uid}\0`)));
  }

  async get(uid: string, app: string, key: string): Promise<string | undefined> {
    return this.values.get([uid, app, key].join("\0"));
  }

  async list(uid: string, app?: string): Promise<StoredPreference[]> {
    const all = [...this.values.entries()].map(([joined, value]) => {
      const [owner = "", storedApp = "", key = ""] = joined.split("\0");
      return { owner, app: storedApp, key, value };
    });
    return all
      .filter((p) => p.owner === uid && (app === undefined || p.app === app))
      .sort((a, b) => (a.app === b.app ? compare(a.key, b.key) : compare(a.app, b.app)))
      .map(({ app: storedApp, key, value }) => ({ app: storedApp, key, value }));
  }

  async put(uid: string, app: string, key: string, value: string): Promise<void> {
    this.tables.requireUser(uid);
    this.values.set([uid, app, key].join("\0"), value);
  }

  async delete(uid: string, app: string, key: string): Promise<boolean> {
    return this.values.delete([uid, app, key].join("\0"));
  }

  async setOnUser(uid: string, preference: UserRowPreference, value: string): Promise<void> {
    const row = this.tables.users.get(uid);
    if (row) row.user = { ...row.user, [preference]: value };
  }

  async clearOnUser(uid: string, preference: UserRowPreference): Promise<boolean> {
    const row = this.tables.users.get(uid);
    if (!row || row.user[preference] === null) return false;
    row.user = { ...row.user, [preference]: null };
    return true;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Deletes the entries `doomed` picks; how many went. */
export function deleteWhere<K, V>(map: Map<K, V>, doomed: (value: V, key: K) => boolean): number {
  let count = 0;
  for (const [key, value] of [...map.entries()]) {
    if (doomed(value, key)) {
      map.delete(key);
      count++;
    }
  }
  return count;
}
