/**
 * The storage the accounts domain needs, one port per aggregate (users, sessions, app passwords,
 * avatars, preferences), with the plain records they take and return. src/storage implements them
 * (`storage/account-*-store.ts`); the domain classes keep the rules (validation, hashing, tokens)
 * and hand the stores finished values. Secrets never reach a store: sessions and app passwords
 * arrive as their SHA-256 hex digests, passwords as argon2id hashes.
 */

export interface User {
  uid: string;
  displayName: string;
  email: string | null;
  /** True only when an administrator marked `email` verified; false again once the address changes. */
  emailVerified: boolean;
  enabled: boolean;
  /** Membership of the group `admin` (src/groups), read with the user. */
  isAdmin: boolean;
  createdAt: number;
  /** Their own language (`core lang`), or null to follow the browser (src/i18n/negotiation.ts). */
  language: string | null;
  /** Their own time zone (`core timezone`, IANA), or null for the server's. */
  timeZone: string | null;
}

/**
 * The profile fields a change may set; an absent field is left as it is, a null email clears it.
 * A change of `email` without `emailVerified` leaves the new address unverified.
 */
export interface ProfileChanges {
  displayName?: string;
  email?: string | null;
  emailVerified?: boolean;
}

/** A user as the administrators' listings show them: with the last sign-in. */
export interface UserListing extends User {
  /** The last completed browser login or app password use (users.last_login_at); null: none recorded. */
  lastLoginAt: number | null;
}

/** One page of a search of the users. */
export interface UserSearch {
  /**
   * Text the uid, display name or address contains, compared without regard to case (ASCII letters);
   * empty or absent: every user.
   */
  text?: string | undefined;
  limit: number;
  offset: number;
}

export interface UserSearchPage {
  /** The page's users, ordered by uid. */
  users: UserListing[];
  /** How many users match in all. */
  total: number;
}

/** What an insert did: wrote the user, or wrote nothing because the uid is a deleted user's. */
export type UserInsertOutcome = "inserted" | "uid_of_deleted_user";

/** Users (table users). */
export interface UserStore {
  /**
   * Inserts the user with its password hash (null: no password login), its address compared by
   * accounts/domain/email.ts `emailKey`, in one transaction with the deleted user names:
   * - the uid is a deleted user's (see `delete`): writes nothing and answers `uid_of_deleted_user`,
   *   unless `reuseDeletedUid`, which removes the uid from the deleted names and inserts;
   * - `user.isAdmin`: the user joins the group `admin` in the same transaction;
   * - the uid exists, or another user holds the address: rejects, writing nothing (the primary key
   *   and the unique address key decide a race between two writes; the caller tells the cases apart
   *   by reading again).
   */
  insert(user: User, passwordHash: string | null, options: { reuseDeletedUid: boolean }): Promise<UserInsertOutcome>;
  /**
   * The uid of a user other than `exceptUid` whose address has `key` (accounts/domain/email.ts),
   * or undefined. Addresses kept without a key (held by several users before keys existed) count
   * too, compared by their key computed here.
   */
  emailHolder(key: string, exceptUid?: string): Promise<string | undefined>;
  /**
   * The user, or undefined when there is none. Read by every authenticated request: one indexed
   * statement, prepared once.
   */
  find(uid: string): Promise<User | undefined>;
  /** The user with its stored password hash (null: no password set), or undefined when there is none. */
  findWithPasswordHash(uid: string): Promise<{ user: User; passwordHash: string | null } | undefined>;
  /** Every user, ordered by uid. */
  list(): Promise<User[]>;
  /**
   * One page of the users matching `search.text` (uid, display name or address containing it,
   * `%` and `_` meaning themselves), ordered by uid, and how many match: two statements, the
   * page and the count, never every row.
   */
  search(search: UserSearch): Promise<UserSearchPage>;
  /** The user with the last sign-in, or undefined when there is none. */
  findListing(uid: string): Promise<UserListing | undefined>;
  /** How many users there are; reads no column but the key, so it answers on a database not migrated yet. */
  count(): Promise<number>;
  /** Replaces the password hash; a uid without a row changes nothing. */
  setPasswordHash(uid: string, passwordHash: string): Promise<void>;
  /** Sets the enabled flag; a uid without a row changes nothing. Sessions are not touched here. */
  setEnabled(uid: string, enabled: boolean): Promise<void>;
  /**
   * Writes the fields present in `changes` (at least one) in one statement; a new address with its
   * key, so the write rejects, changing nothing, when another user holds the address.
   */
  updateProfile(uid: string, changes: ProfileChanges): Promise<void>;
  /**
   * In one transaction: deletes the user and, by ON DELETE CASCADE, every row that references it
   * (sessions, app passwords, preferences, avatar, grants, tokens, activities), and records the uid
   * among the deleted user names at `at`. False, with nothing written, when there was no such user.
   */
  delete(uid: string, at: number): Promise<boolean>;
}

/** A session row as written at its start. */
export interface NewSessionRecord {
  idHash: string;
  /** null only in rows of earlier versions (a login page's anonymous session); a login starts every session now. */
  uid: string | null;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
  /** The browser's User-Agent, already cut to the column's width; null when none was sent. */
  userAgent: string | null;
  lastSeenAt: number;
  /** The step still owed after the password (SessionPending); null or absent: none. */
  pending?: SessionPending | null;
}

/**
 * What a session that has passed only the password still owes before it is a login: the second
 * factor's challenge, or (second factors enforced, the user has none) setting one up.
 */
export type SessionPending = "second_factor" | "second_factor_setup";

/** A stored session as the per-request lookup reads it, with its user's enabled flag. */
export interface StoredSession {
  uid: string | null;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
  /** null for a row written before the column existed. */
  lastSeenAt: number | null;
  /** True only when the session has a user and that user's row says enabled. */
  userEnabled: boolean;
  /** The step still owed after the password; null for a complete login (and rows before the column). */
  pending: SessionPending | null;
}

/** One of a user's live sessions as personal settings lists it. */
export interface SessionSummary {
  /**
   * The stored SHA-256 of the cookie value: names the session on the page and in the End form
   * without being the cookie secret itself.
   */
  id: string;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number | null;
}

/** Which sessions an act ended: one (its id hash), or every session of a user but one (or all). */
export type EndedSessions = { sessionIdHash: string } | { uid: string; exceptSessionIdHash?: string | undefined };

/**
 * Told after sessions were ended by a logout, a revocation, a password change or an administrator
 * (not by expiry), so the applications signed in through them can be told too (OpenID Connect
 * back-channel logout, src/oidc/backchannel-logout.ts). Awaited: what it records is durable
 * before the act's answer.
 */
export interface SessionEndObserver {
  sessionsEnded(ended: EndedSessions): Promise<void>;
}

/** Browser sessions (table sessions), keyed by the SHA-256 hex of the cookie value. */
export interface SessionStore {
  /** Writes the session; a complete login (`pending` null) also records it as its user's last sign-in. */
  insert(session: NewSessionRecord): Promise<void>;
  /**
   * The session stored under `idHash`, expired or not (the caller decides liveness), or undefined.
   * Read by every request with a session cookie: one indexed statement, prepared once.
   */
  findByIdHash(idHash: string): Promise<StoredSession | undefined>;
  /** Moves the session's expiry and last-seen time; a missing session changes nothing. */
  extend(idHash: string, expiresAt: number, lastSeenAt: number): Promise<void>;
  /** The user's sessions that expire after `now`, in no particular order. */
  listLiveOf(uid: string, now: number): Promise<SessionSummary[]>;
  /** Deletes the session `idHash` only when it belongs to `uid`; true when a row went. */
  deleteOwn(uid: string, idHash: string): Promise<boolean>;
  /** Deletes the session `idHash`, if there is one. */
  delete(idHash: string): Promise<void>;
  /** Deletes every session of `uid` except `keepIdHash`'s, in one statement; returns how many went. */
  deleteAllOf(uid: string, keepIdHash?: string): Promise<number>;
  /** Deletes the sessions whose expiry is at or before `now`; returns how many went. */
  deleteExpired(now: number): Promise<number>;
}

/**
 * When each session's user last proved the password (column sessions.password_confirmed_at), kept
 * apart from the per-request session read: only the routes that need a recent confirmation ask.
 */
export interface PasswordConfirmationStore {
  /**
   * The later of the session's login (its `created_at`) and its last recorded confirmation, for
   * the session stored under `idHash`; undefined when there is no such session.
   */
  confirmedAt(idHash: string): Promise<number | undefined>;
  /** Records a confirmation at `at` on the session `idHash`; a missing session changes nothing. */
  record(idHash: string, at: number): Promise<void>;
}

export interface AppPassword {
  id: number;
  uid: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** An app password as it is written: its name checked, its secret only as a digest. */
export interface NewAppPasswordRecord {
  uid: string;
  name: string;
  /** SHA-256 hex of the secret, which is shown once and never stored. */
  tokenHash: string;
  createdAt: number;
}

/** App passwords (table app_passwords), found by the digest of their secret. */
export interface AppPasswordStore {
  /** Inserts the app password, never used yet; returns its id. */
  insert(record: NewAppPasswordRecord): Promise<number>;
  /** The user's app passwords, in creation (id) order. */
  listOf(uid: string): Promise<AppPassword[]>;
  /** Deletes app password `id` only when it belongs to `uid`; true when a row went. */
  deleteOwn(uid: string, id: number): Promise<boolean>;
  /**
   * The app password stored under `tokenHash`, or undefined. An index probe on the digest, so the
   * time taken says nothing about the secret. Read by every Basic-authenticated request: one
   * statement, prepared once.
   */
  findByTokenHash(tokenHash: string): Promise<{ id: number; uid: string; lastUsedAt: number | null } | undefined>;
  /** Records a use of app password `id` at `at`, also as its user's last sign-in. */
  markUsed(id: number, at: number): Promise<void>;
  /**
   * Deletes every app password of `uid` in one statement (and, by cascade, the Login Flow v2 grants
   * not yet polled that hold one); returns how many went.
   */
  deleteAllOf(uid: string): Promise<number>;
}

/** An avatar as stored: the image bytes and the type recognised from them. */
export interface StoredAvatar {
  contentType: string;
  data: Buffer;
  updatedAt: number;
}

/** User avatars (table user_avatars), one per user. */
export interface AvatarStore {
  /** Writes the user's avatar, replacing the one they had, in one statement. */
  put(uid: string, avatar: StoredAvatar): Promise<void>;
  /** The user's avatar with its bytes, or undefined when they have none. */
  get(uid: string): Promise<StoredAvatar | undefined>;
  /**
   * The content type of the user's avatar without its bytes, or undefined when they have none.
   * Asked on every UserInfo request: one indexed statement, prepared once.
   */
  contentTypeOf(uid: string): Promise<string | undefined>;
  /** Deletes the user's avatar; false when they had none. */
  delete(uid: string): Promise<boolean>;
}

/** The preferences kept on the user row (read with every authenticated request), by User field. */
export type UserRowPreference = "language" | "timeZone";

/** One stored preference of a user. */
export interface StoredPreference {
  app: string;
  key: string;
  value: string;
}

/**
 * ownCloud's per-user preferences (table user_preferences, keyed by user, app and key), and the
 * two that are columns of the user row. Values arrive checked and normalised.
 */
export interface PreferenceStore {
  /** The stored value, or undefined when it is not set. */
  get(uid: string, app: string, key: string): Promise<string | undefined>;
  /** The user's stored preferences (of one app only, when given), ordered by app then key. */
  list(uid: string, app?: string): Promise<StoredPreference[]>;
  /** Sets the value, inserting or replacing it in one statement (an upsert on uid, app and key). */
  put(uid: string, app: string, key: string, value: string): Promise<void>;
  /** Deletes the preference; false when it was not set. */
  delete(uid: string, app: string, key: string): Promise<boolean>;
  /** Sets a preference of the user row. */
  setOnUser(uid: string, preference: UserRowPreference, value: string): Promise<void>;
  /** Clears a preference of the user row (to null); false when it was already null or no such user. */
  clearOnUser(uid: string, preference: UserRowPreference): Promise<boolean>;
}
