import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import { type Refusal, type Result, succeeded } from "../refusal.js";
import { emailKey } from "./domain/email.js";
import { type AccountRefusal, type AccountResult, accountRefusal } from "./errors.js";
import { dummyPasswordHash, hashPassword, passwordProblem, verifyPassword } from "./passwords.js";
import type {
  ProfileChanges,
  SessionEndObserver,
  SessionStore,
  User,
  UserListing,
  UserSearch,
  UserSearchPage,
  UserStore,
} from "./ports.js";
import { notifyEnded } from "./sessions.js";

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
  /**
   * Give the new account the name of a deleted one. Only an administrator's explicit choice
   * (`./occ user:add --reuse-deleted-name`): the name is the OpenID Connect `sub`, so every
   * application the deleted user signed in to takes the new account for them.
   */
  reuseDeletedUid?: boolean | undefined;
}

/** A change of a user's profile. `emailVerified` is an administrator's statement only (occ user:modify). */
export interface ProfileUpdate {
  displayName?: string;
  /** The new address; "" clears it. */
  email?: string;
  /**
   * True: an administrator vouches that the user controls the address; false: it is unverified.
   * Absent: an unchanged address keeps its state, a changed one is unverified.
   */
  emailVerified?: boolean;
}

/** The refusal of an invalid display name or address, else undefined. */
function profileRefusal(displayName: string | undefined, email: string | undefined): AccountRefusal | undefined {
  if (displayName !== undefined && (displayName.length > 255 || displayName.trim() === "")) {
    return accountRefusal("invalid_display_name", "invalidDisplayName");
  }
  if (email !== undefined && email !== "" && (!EMAIL_PATTERN.test(email) || email.length > 255)) {
    return accountRefusal("invalid_email", "invalidEmail", { email });
  }
  return undefined;
}

/** The refusal of a password the rules refuse (passwords.ts), else undefined. */
function passwordRefusal(password: string): AccountRefusal | undefined {
  const reason = passwordProblem(password);
  return reason && accountRefusal("invalid_password", reason.text, reason.values);
}

/** What the directory asks and tells beyond its own store, given when it is built. */
export interface UserDirectoryListeners {
  /**
   * A rule deleting or disabling a user must pass first (the groups' "never the last
   * administrator": nobody could administer the server again).
   */
  removalGuard?: (uid: string) => Promise<Refusal | undefined>;
  /** Told the uid after a new password was stored (the user is notified of it). */
  passwordChanged?: (uid: string) => Promise<void>;
}

export class UserDirectory {
  constructor(
    private readonly store: UserStore,
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
    /** Told when disabling or deleting a user ended their sessions (accounts/sessions.ts). */
    private readonly endObservers: readonly SessionEndObserver[] = [],
    private readonly audit: AuditTrail = NO_AUDIT,
    private readonly listeners: UserDirectoryListeners = {},
  ) {}

  /**
   * Validates everything before writing, so a refused user leaves no row behind. Refuses a uid that
   * exists, the uid of a deleted user (unless `reuseDeletedUid`), and an address another user has.
   */
  async create(input: NewUser): Promise<AccountResult<User>> {
    const problem = uidProblem(input.uid);
    if (problem) return accountRefusal("invalid_uid", "invalidUid", { uid: input.uid });
    const invalid =
      profileRefusal(input.displayName, input.email) ??
      (input.password === undefined ? undefined : passwordRefusal(input.password));
    if (invalid) return invalid;
    if (await this.find(input.uid)) return accountRefusal("uid_taken", "uidTaken", { uid: input.uid });
    const email = input.email || null;
    const taken = email === null ? undefined : await this.takenEmailRefusal(email);
    if (taken) return taken;
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const user: User = {
      uid: input.uid,
      displayName: input.displayName ?? input.uid,
      email,
      emailVerified: false,
      enabled: true,
      isAdmin: input.isAdmin === true,
      createdAt: this.clock.nowSeconds(),
      language: null,
      timeZone: null,
    };
    let outcome: Awaited<ReturnType<UserStore["insert"]>>;
    try {
      outcome = await this.store.insert(user, passwordHash, { reuseDeletedUid: input.reuseDeletedUid === true });
    } catch (error) {
      // Lost a race with a concurrent write of the same uid or address: the database's keys decided.
      if (await this.find(input.uid)) return accountRefusal("uid_taken", "uidTaken", { uid: input.uid });
      const lost = email === null ? undefined : await this.takenEmailRefusal(email);
      if (lost) return lost;
      throw error;
    }
    if (outcome === "uid_of_deleted_user") {
      return accountRefusal("uid_of_deleted_user", "uidOfDeletedUser", { uid: input.uid });
    }
    this.audit.record("user.created", {
      uid: user.uid,
      subject: { type: "user", id: user.uid },
      detail: { admin: user.isAdmin },
    });
    return succeeded(user);
  }

  /** One account, one address: the refusal of `email` when a user other than `uid` has it (emailKey compares). */
  private async takenEmailRefusal(email: string, uid?: string): Promise<AccountRefusal | undefined> {
    const taken = await this.store.emailHolder(emailKey(email), uid);
    return taken ? accountRefusal("email_taken", "emailTaken", { email }) : undefined;
  }

  find(uid: string): Promise<User | undefined> {
    return this.store.find(uid);
  }

  /** The user, or the refusal `no_such_user`. */
  async require(uid: string): Promise<AccountResult<User>> {
    const user = await this.find(uid);
    return user ? succeeded(user) : accountRefusal("no_such_user", "noSuchUser", { uid });
  }

  list(): Promise<User[]> {
    return this.store.list();
  }

  /** One page of the users whose uid, display name or address contains `search.text` (UserStore.search). */
  search(search: UserSearch): Promise<UserSearchPage> {
    return this.store.search(search);
  }

  /** The user with the last sign-in, or the refusal `no_such_user`. */
  async requireListing(uid: string): Promise<AccountResult<UserListing>> {
    const user = await this.store.findListing(uid);
    return user ? succeeded(user) : accountRefusal("no_such_user", "noSuchUser", { uid });
  }

  count(): Promise<number> {
    return this.store.count();
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

  async setPassword(uid: string, password: string): Promise<AccountResult<void>> {
    const refusal = passwordRefusal(password);
    if (refusal) return refusal;
    const user = await this.require(uid);
    if (!user.ok) return user;
    const passwordHash = await hashPassword(password);
    await this.store.setPasswordHash(uid, passwordHash);
    this.audit.record("user.password_changed", { uid, subject: { type: "user", id: uid } });
    await this.listeners.passwordChanged?.(uid);
    return succeeded(undefined);
  }

  /** Refused for an unknown user, and (disabling) by the removal guard. */
  async setEnabled(uid: string, enabled: boolean): Promise<Result<void>> {
    const user = await this.require(uid);
    if (!user.ok) return user;
    const guarded = enabled ? undefined : await this.listeners.removalGuard?.(uid);
    if (guarded) return guarded;
    await this.store.setEnabled(uid, enabled);
    this.audit.record(enabled ? "user.enabled" : "user.disabled", { uid, subject: { type: "user", id: uid } });
    if (!enabled) {
      // A disabled account keeps its data but loses every live login at once.
      await this.sessions.deleteAllOf(uid);
      await notifyEnded(this.endObservers, { uid });
    }
    return succeeded(undefined);
  }

  /**
   * Changes the profile. The address is written (and checked: no other user may have it) when it
   * changes, or when an administrator states whether it is verified; an unchanged address is left
   * as it is, so saving one's full name never trips over the address.
   */
  async updateProfile(uid: string, changes: ProfileUpdate): Promise<AccountResult<void>> {
    const invalid = profileRefusal(changes.displayName, changes.email);
    if (invalid) return invalid;
    const found = await this.require(uid);
    if (!found.ok) return found;
    const user = found.value;
    const set: ProfileChanges = {};
    if (changes.displayName !== undefined) set.displayName = changes.displayName;
    const email = changes.email === undefined ? user.email : changes.email || null;
    if (email !== user.email || changes.emailVerified !== undefined) {
      const taken = email === null ? undefined : await this.takenEmailRefusal(email, uid);
      if (taken) return taken;
      set.email = email;
      set.emailVerified = email !== null && changes.emailVerified === true;
    }
    if (Object.keys(set).length === 0) return succeeded(undefined);
    try {
      await this.store.updateProfile(uid, set);
    } catch (error) {
      // Lost a race with another user's write of the same address: the unique key decided.
      const lost = set.email ? await this.takenEmailRefusal(set.email, uid) : undefined;
      if (lost) return lost;
      throw error;
    }
    this.audit.record("user.modified", { uid, subject: { type: "user", id: uid }, detail: { fields: Object.keys(set) } });
    return succeeded(undefined);
  }

  /**
   * Deletes the user. Every table that references a user does so with ON DELETE CASCADE, so
   * sessions, app passwords, grants, tokens and activities go with it. The uid is kept among the
   * deleted user names: `create` refuses it from then on unless told to reuse it.
   */
  async delete(uid: string): Promise<Result<void>> {
    const guarded = await this.listeners.removalGuard?.(uid);
    if (guarded) return guarded;
    if (!(await this.store.delete(uid, this.clock.nowSeconds()))) {
      return accountRefusal("no_such_user", "noSuchUser", { uid });
    }
    this.audit.record("user.deleted", { uid, subject: { type: "user", id: uid } });
    // The user's sessions went with the user.
    await notifyEnded(this.endObservers, { uid });
    return succeeded(undefined);
  }
}
