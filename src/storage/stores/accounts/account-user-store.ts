import { sql } from "kysely";
import { emailKey } from "../../../accounts/domain/email.js";
import type {
  ProfileChanges,
  User,
  UserInsertOutcome,
  UserListing,
  UserSearch,
  UserSearchPage,
  UserStore,
} from "../../../accounts/ports.js";
import { ADMIN_GROUP } from "../../../groups/domain/group-id.js";
import type { Db } from "../../driver/database.js";
import { PreparedQuery, transaction } from "../../driver/prepared.js";
import { isAdminOf, type UserColumns, userFromRow } from "../../schema/accounts.js";

function listingFromRow(row: UserColumns & { last_login_at: number | string | null }): UserListing {
  return { ...userFromRow(row), lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at) };
}

const USER_COLUMNS = ["uid", "display_name", "email", "email_verified", "enabled", "created_at", "language", "timezone"] as const;

/** Users (table users) and the user names of deleted accounts (table deleted_uids). */
export class SqlUserStore implements UserStore {
  /** Every authenticated request reads its user (see PreparedQuery). */
  private readonly byUid: PreparedQuery<{ uid: string }, UserColumns>;

  constructor(private readonly db: Db) {
    this.byUid = new PreparedQuery((slot) =>
      db.selectFrom("users").select(USER_COLUMNS).select(isAdminOf("users.uid")).where("uid", "=", slot("uid")),
    );
  }

  insert(user: User, passwordHash: string | null, options: { reuseDeletedUid: boolean }): Promise<UserInsertOutcome> {
    return transaction(this.db, async (trx) => {
      if (options.reuseDeletedUid) {
        await trx.deleteFrom("deleted_uids").where("uid", "=", user.uid).execute();
      } else {
        const deleted = await trx.selectFrom("deleted_uids").select("uid").where("uid", "=", user.uid).executeTakeFirst();
        if (deleted) return "uid_of_deleted_user";
      }
      await trx
        .insertInto("users")
        .values({
          uid: user.uid,
          display_name: user.displayName,
          email: user.email,
          email_key: user.email === null ? null : emailKey(user.email),
          email_verified: user.emailVerified ? 1 : 0,
          password_hash: passwordHash,
          enabled: user.enabled ? 1 : 0,
          created_at: user.createdAt,
          language: user.language,
          timezone: user.timeZone,
        })
        .execute();
      if (user.isAdmin) await trx.insertInto("group_members").values({ gid: ADMIN_GROUP, uid: user.uid }).execute();
      return "inserted";
    });
  }

  async emailHolder(key: string, exceptUid?: string): Promise<string | undefined> {
    let keyed = this.db.selectFrom("users").select("uid").where("email_key", "=", key);
    if (exceptUid !== undefined) keyed = keyed.where("uid", "<>", exceptUid);
    const holder = await keyed.executeTakeFirst();
    if (holder) return holder.uid;
    // Addresses that several users held before keys existed keep their rows without a key (migration 0017).
    let unkeyed = this.db
      .selectFrom("users")
      .select(["uid", "email"])
      .where("email_key", "is", null)
      .where("email", "is not", null);
    if (exceptUid !== undefined) unkeyed = unkeyed.where("uid", "<>", exceptUid);
    const rows = await unkeyed.orderBy("uid").execute();
    return rows.find((row) => row.email !== null && emailKey(row.email) === key)?.uid;
  }

  async find(uid: string): Promise<User | undefined> {
    const row = await this.byUid.first(this.db, { uid });
    return row ? userFromRow(row) : undefined;
  }

  async findWithPasswordHash(uid: string): Promise<{ user: User; passwordHash: string | null } | undefined> {
    const row = await this.db
      .selectFrom("users")
      .selectAll()
      .select(isAdminOf("users.uid"))
      .where("uid", "=", uid)
      .executeTakeFirst();
    return row && { user: userFromRow(row), passwordHash: row.password_hash };
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom("users").select(USER_COLUMNS).select(isAdminOf("users.uid")).orderBy("uid").execute();
    return rows.map(userFromRow);
  }

  async search(search: UserSearch): Promise<UserSearchPage> {
    const text = search.text?.trim().toLowerCase() ?? "";
    // LIKE with its wildcards escaped: what the administrator typed is matched as it is.
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    let matching = this.db.selectFrom("users");
    if (text !== "") {
      matching = matching.where((eb) =>
        eb.or(
          (["uid", "display_name", "email"] as const).map(
            (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
          ),
        ),
      );
    }
    const rows = await matching
      .select([...USER_COLUMNS, "last_login_at"])
      .select(isAdminOf("users.uid"))
      .orderBy("uid")
      .limit(search.limit)
      .offset(search.offset)
      .execute();
    const count = await matching.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
    return { users: rows.map(listingFromRow), total: Number(count.n) };
  }

  async findListing(uid: string): Promise<UserListing | undefined> {
    const row = await this.db
      .selectFrom("users")
      .select([...USER_COLUMNS, "last_login_at"])
      .select(isAdminOf("users.uid"))
      .where("uid", "=", uid)
      .executeTakeFirst();
    return row && listingFromRow(row);
  }

  async count(): Promise<number> {
    // No column but the key: `./occ status` counts the users of a database not migrated yet.
    const row = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
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
    const set: { display_name?: string; email?: string | null; email_key?: string | null; email_verified?: number } = {};
    if (changes.displayName !== undefined) set.display_name = changes.displayName;
    if (changes.email !== undefined) {
      set.email = changes.email;
      set.email_key = changes.email === null ? null : emailKey(changes.email);
      set.email_verified = changes.emailVerified === true ? 1 : 0;
    } else if (changes.emailVerified !== undefined) {
      set.email_verified = changes.emailVerified ? 1 : 0;
    }
    await this.db.updateTable("users").set(set).where("uid", "=", uid).execute();
  }

  delete(uid: string, at: number): Promise<boolean> {
    return transaction(this.db, async (trx) => {
      const result = await trx.deleteFrom("users").where("uid", "=", uid).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx
        .insertInto("deleted_uids")
        .values({ uid, deleted_at: at })
        .onConflict((c) => c.column("uid").doUpdateSet({ deleted_at: at }))
        .execute();
      return true;
    });
  }
}
