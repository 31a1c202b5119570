import type { ProfileChanges, User, UserStore } from "../accounts/ports.js";
import type { DbOrTx } from "./database.js";
import { PreparedQuery } from "./prepared.js";
import type { UsersTable } from "./schema/accounts.js";

/** A users row as the domain's User (also for stores that read the user with another row). */
export function userFromRow(row: Omit<UsersTable, "password_hash">): User {
  return {
    uid: row.uid,
    displayName: row.display_name,
    email: row.email,
    enabled: row.enabled === 1,
    isAdmin: row.is_admin === 1,
    createdAt: row.created_at,
    language: row.language,
    timeZone: row.timezone,
  };
}

/** Users (table users). */
export class SqlUserStore implements UserStore {
  /** Every authenticated request reads its user (see PreparedQuery). */
  private readonly byUid: PreparedQuery<{ uid: string }, Omit<UsersTable, "password_hash">>;

  constructor(private readonly db: DbOrTx) {
    this.byUid = new PreparedQuery((slot) =>
      db
        .selectFrom("users")
        .select(["uid", "display_name", "email", "enabled", "is_admin", "created_at", "language", "timezone"])
        .where("uid", "=", slot("uid")),
    );
  }

  async insert(user: User, passwordHash: string | null): Promise<void> {
    await this.db
      .insertInto("users")
      .values({
        uid: user.uid,
        display_name: user.displayName,
        email: user.email,
        password_hash: passwordHash,
        enabled: user.enabled ? 1 : 0,
        is_admin: user.isAdmin ? 1 : 0,
        created_at: user.createdAt,
        language: user.language,
        timezone: user.timeZone,
      })
      .execute();
  }

  async find(uid: string): Promise<User | undefined> {
    const row = await this.byUid.first(this.db, { uid });
    return row ? userFromRow(row) : undefined;
  }

  async findWithPasswordHash(uid: string): Promise<{ user: User; passwordHash: string | null } | undefined> {
    const row = await this.db.selectFrom("users").selectAll().where("uid", "=", uid).executeTakeFirst();
    return row && { user: userFromRow(row), passwordHash: row.password_hash };
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom("users").selectAll().orderBy("uid").execute();
    return rows.map(userFromRow);
  }

  async setPasswordHash(uid: string, passwordHash: string): Promise<void> {
    await this.db.updateTable("users").set({ password_hash: passwordHash }).where("uid", "=", uid).execute();
  }

  async setEnabled(uid: string, enabled: boolean): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ enabled: enabled ? 1 : 0 })
      .where("uid", "=", uid)
      .execute();
  }

  async updateProfile(uid: string, changes: ProfileChanges): Promise<void> {
    const set: Partial<UsersTable> = {};
    if (changes.displayName !== undefined) set.display_name = changes.displayName;
    if (changes.email !== undefined) set.email = changes.email;
    await this.db.updateTable("users").set(set).where("uid", "=", uid).execute();
  }

  async delete(uid: string): Promise<boolean> {
    const result = await this.db.deleteFrom("users").where("uid", "=", uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
