import type { Clock } from "../clock.js";
import type { DbOrTx } from "../storage/database.js";
import { PreparedQuery } from "../storage/prepared.js";
import type { UsersTable } from "../storage/schema/accounts.js";
import { AccountError } from "./errors.js";
import { dummyPasswordHash, hashPassword, passwordProblem, verifyPassword } from "./passwords.js";

export interface User {
  uid: string;
  displayName: string;
  email: string | null;
  enabled: boolean;
  isAdmin: boolean;
  createdAt: number;
  /** Their own language (`core lang`), or null to follow the browser (src/i18n/negotiation.ts). */
  language: string | null;
  /** Their own time zone (`core timezone`, IANA), or null for the server's. */
  timeZone: string | null;
}

/** ownCloud's user-name rule: letters, digits and `_.@-'` and space; at most 64 characters. */
const UID_PATTERN = /^[A-Za-z0-9 _.@\-']{1,64}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export function uidProblem(uid: string): string | undefined {
  if (!UID_PATTERN.test(uid) || uid.trim() !== uid) {
    return "a user name may contain only letters, digits, spaces and _.@-' (1 to 64 characters, no leading or trailing space)";
  }
  return undefined;
}

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

export interface NewUser {
  uid: string;
  password?: string | undefined;
  displayName?: string | undefined;
  email?: string | undefined;
  isAdmin?: boolean | undefined;
}

function validateProfile(displayName: string | undefined, email: string | undefined): void {
  if (displayName !== undefined && (displayName.length > 255 || displayName.trim() === "")) {
    throw new AccountError("invalid_display_name", "invalidDisplayName");
  }
  if (email !== undefined && email !== "" && (!EMAIL_PATTERN.test(email) || email.length > 255)) {
    throw new AccountError("invalid_email", "invalidEmail", { email });
  }
}

export class UserDirectory {
  /** Every authenticated request reads its user (see PreparedQuery). */
  private readonly byUid: PreparedQuery<{ uid: string }, Omit<UsersTable, "password_hash">>;

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
  ) {
    this.byUid = new PreparedQuery((slot) =>
      db
        .selectFrom("users")
        .select(["uid", "display_name", "email", "enabled", "is_admin", "created_at", "language", "timezone"])
        .where("uid", "=", slot("uid")),
    );
  }

  /** Validates everything before writing, so a refused user leaves no row behind. */
  async create(input: NewUser): Promise<User> {
    const problem = uidProblem(input.uid);
    if (problem) throw new AccountError("invalid_uid", "invalidUid", { uid: input.uid });
    validateProfile(input.displayName, input.email);
    if (input.password !== undefined) {
      const reason = passwordProblem(input.password);
      if (reason) throw new AccountError("invalid_password", reason.text, reason.values);
    }
    if (await this.find(input.uid)) throw new AccountError("uid_taken", "uidTaken", { uid: input.uid });
    const row: UsersTable = {
      uid: input.uid,
      display_name: input.displayName ?? input.uid,
      email: input.email || null,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      enabled: 1,
      is_admin: input.isAdmin ? 1 : 0,
      created_at: this.clock.nowSeconds(),
      language: null,
      timezone: null,
    };
    try {
      await this.db.insertInto("users").values(row).execute();
    } catch (error) {
      // Lost a race with a concurrent create of the same uid: the primary key decided.
      if (await this.find(input.uid)) throw new AccountError("uid_taken", "uidTaken", { uid: input.uid });
      throw error;
    }
    return userFromRow(row);
  }

  async find(uid: string): Promise<User | undefined> {
    const row = await this.byUid.first(this.db, { uid });
    return row ? userFromRow(row) : undefined;
  }

  async require(uid: string): Promise<User> {
    const user = await this.find(uid);
    if (!user) throw new AccountError("no_such_user", "noSuchUser", { uid });
    return user;
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom("users").selectAll().orderBy("uid").execute();
    return rows.map(userFromRow);
  }

  /**
   * Checks a password. Unknown users and users without a password cost one argon2 verification
   * too, so response time does not reveal which accounts exist.
   */
  async checkPassword(uid: string, password: string): Promise<User | undefined> {
    const row = await this.db.selectFrom("users").selectAll().where("uid", "=", uid).executeTakeFirst();
    if (!row?.password_hash) {
      await verifyPassword(await dummyPasswordHash(), password);
      return undefined;
    }
    return (await verifyPassword(row.password_hash, password)) ? userFromRow(row) : undefined;
  }

  async setPassword(uid: string, password: string): Promise<void> {
    const reason = passwordProblem(password);
    if (reason) throw new AccountError("invalid_password", reason.text, reason.values);
    await this.require(uid);
    const passwordHash = await hashPassword(password);
    await this.db.updateTable("users").set({ password_hash: passwordHash }).where("uid", "=", uid).execute();
  }

  async setEnabled(uid: string, enabled: boolean): Promise<void> {
    await this.require(uid);
    await this.db
      .updateTable("users")
      .set({ enabled: enabled ? 1 : 0 })
      .where("uid", "=", uid)
      .execute();
    if (!enabled) {
      // A disabled account keeps its data but loses every live login at once.
      await this.db.deleteFrom("sessions").where("uid", "=", uid).execute();
    }
  }

  async updateProfile(uid: string, changes: { displayName?: string; email?: string }): Promise<void> {
    validateProfile(changes.displayName, changes.email);
    await this.require(uid);
    const set: Partial<UsersTable> = {};
    if (changes.displayName !== undefined) set.display_name = changes.displayName;
    if (changes.email !== undefined) set.email = changes.email || null;
    if (Object.keys(set).length > 0) await this.db.updateTable("users").set(set).where("uid", "=", uid).execute();
  }

  /**
   * Deletes the user. Every table that references a user does so with ON DELETE CASCADE, so
   * sessions, app passwords and (later) grants, tokens and activities go with it in one statement.
   */
  async delete(uid: string): Promise<void> {
    const result = await this.db.deleteFrom("users").where("uid", "=", uid).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AccountError("no_such_user", "noSuchUser", { uid });
  }
}
