import type { Clock } from "../clock.js";
import { AccountError } from "./errors.js";
import { dummyPasswordHash, hashPassword, passwordProblem, verifyPassword } from "./passwords.js";
import type { ProfileChanges, SessionStore, User, UserStore } from "./ports.js";

/** ownCloud's user-name rule: letters, digits and `_.@-'` and space; at most 64 characters. */
const UID_PATTERN = /^[A-Za-z0-9 _.@\-']{1,64}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export function uidProblem(uid: string): string | undefined {
  if (!UID_PATTERN.test(uid) || uid.trim() !== uid) {
    return "a user name may contain only letters, digits, spaces and _.@-' (1 to 64 characters, no leading or trailing space)";
  }
  return undefined;
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
  constructor(
    private readonly store: UserStore,
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
  ) {}

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
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const user: User = {
      uid: input.uid,
      displayName: input.displayName ?? input.uid,
      email: input.email || null,
      enabled: true,
      isAdmin: input.isAdmin === true,
      createdAt: this.clock.nowSeconds(),
      language: null,
      timeZone: null,
    };
    try {
      await this.store.insert(user, passwordHash);
    } catch (error) {
      // Lost a race with a concurrent create of the same uid: the primary key decided.
      if (await this.find(input.uid)) throw new AccountError("uid_taken", "uidTaken", { uid: input.uid });
      throw error;
    }
    return user;
  }

  find(uid: string): Promise<User | undefined> {
    return this.store.find(uid);
  }

  async require(uid: string): Promise<User> {
    const user = await this.find(uid);
    if (!user) throw new AccountError("no_such_user", "noSuchUser", { uid });
    return user;
  }

  list(): Promise<User[]> {
    return this.store.list();
  }

  /**
   * Checks a password. Unknown users and users without a password cost one argon2 verification
   * too, so response time does not reveal which accounts exist.
   */
  async checkPassword(uid: string, password: string): Promise<User | undefined> {
    const found = await this.store.findWithPasswordHash(uid);
    if (!found?.passwordHash) {
      await verifyPassword(await dummyPasswordHash(), password);
      return undefined;
    }
    return (await verifyPassword(found.passwordHash, password)) ? found.user : undefined;
  }

  async setPassword(uid: string, password: string): Promise<void> {
    const reason = passwordProblem(password);
    if (reason) throw new AccountError("invalid_password", reason.text, reason.values);
    await this.require(uid);
    const passwordHash = await hashPassword(password);
    await this.store.setPasswordHash(uid, passwordHash);
  }

  async setEnabled(uid: string, enabled: boolean): Promise<void> {
    await this.require(uid);
    await this.store.setEnabled(uid, enabled);
    if (!enabled) {
      // A disabled account keeps its data but loses every live login at once.
      await this.sessions.deleteAllOf(uid);
    }
  }

  async updateProfile(uid: string, changes: { displayName?: string; email?: string }): Promise<void> {
    validateProfile(changes.displayName, changes.email);
    await this.require(uid);
    const set: ProfileChanges = {};
    if (changes.displayName !== undefined) set.displayName = changes.displayName;
    if (changes.email !== undefined) set.email = changes.email || null;
    if (Object.keys(set).length > 0) await this.store.updateProfile(uid, set);
  }

  /**
   * Deletes the user. Every table that references a user does so with ON DELETE CASCADE, so
   * sessions, app passwords, grants, tokens and activities go with it in one statement.
   */
  async delete(uid: string): Promise<void> {
    if (!(await this.store.delete(uid))) throw new AccountError("no_such_user", "noSuchUser", { uid });
  }
}
