import { type ColumnType, type Generated, sql } from "kysely";
import type { User } from "../../accounts/ports.js";
import { ADMIN_GROUP } from "../../groups/domain/group-id.js";

/** Seconds since the epoch. Every timestamp is written by code (never NOW()) so both dialects agree. */
export type EpochSeconds = number;

export interface UsersTable {
  uid: string;
  display_name: string;
  email: string | null;
  /** argon2id PHC string; null when the account cannot log in with a password. */
  password_hash: string | null;
  /** 1 = enabled, 0 = disabled (integers: portable across SQLite and PostgreSQL). */
  enabled: number;
  created_at: EpochSeconds;
  /** `core lang` (occ user:setting): a catalogue language code, or null to follow the browser. */
  language: string | null;
  /** `core timezone`: an IANA zone name, or null for the server's. */
  timezone: string | null;
  /**
   * The address as accounts/domain/email.ts compares it, unique (migration 0017); null without an
   * address, and for the later accounts of an address several held before that migration.
   */
  email_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when an administrator marked the address verified; back to 0 when the address changes. */
  email_verified: ColumnType<number, number | undefined, number>;
  /** The last completed browser login or app password use (migration 0028); null: none since. */
  last_login_at: ColumnType<EpochSeconds | null, EpochSeconds | null | undefined, EpochSeconds | null>;
}

/** The user names of deleted accounts (migration 0017): not given to a new account unless asked. */
export interface DeletedUidsTable {
  uid: string;
  deleted_at: EpochSeconds;
}

/** ownCloud's per-user preferences (`./occ user:setting`), but `core lang`/`core timezone` (on users). */
export interface UserPreferencesTable {
  uid: string;
  app: string;
  config_key: string;
  config_value: string;
}

export interface AppPasswordsTable {
  id: Generated<number>;
  uid: string;
  name: string;
  /** SHA-256 hex of the app password; the password itself is shown once and never stored. */
  token_hash: string;
  created_at: EpochSeconds;
  last_used_at: EpochSeconds | null;
}

export interface SessionsTable {
  /** SHA-256 hex of the cookie value, so a database dump does not yield live sessions. */
  id_hash: string;
  /** null for an anonymous session (a visitor on the login page who needs a CSRF token). */
  uid: string | null;
  csrf_token: string;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  /** The browser's User-Agent at login, cut to 255 characters (migration 0015); null before it. */
  user_agent: string | null;
  /** Last request seen, written at most once a minute (migration 0015); null before it. */
  last_seen_at: EpochSeconds | null;
  /** The user's last password confirmation after the login (migration 0018); null: none since the login. */
  password_confirmed_at: EpochSeconds | null;
  /**
   * The step a session that has passed only the password still owes (migration 0023:
   * `second_factor` or `second_factor_setup`); null for a complete login.
   */
  second_factor_pending: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ThrottleTable {
  /** e.g. `login:ip:127.0.0.1`, `login:user:<sha256 hex of the user name>` or `oauth:ip:127.0.0.1`. */
  bucket: string;
  failures: number;
  last_failure_at: EpochSeconds;
  /** Attempts reserved and not yet settled (migration 2026_11_24_0010). */
  in_flight: ColumnType<number, number | undefined, number>;
  /** When the latest attempt was reserved; in-flight reservations older than the policy's limit do not count. */
  last_attempt_at: ColumnType<EpochSeconds, EpochSeconds | undefined, EpochSeconds>;
}

export interface JobLeasesTable {
  name: string;
  holder: string;
  lease_until: EpochSeconds;
  last_run_at: ColumnType<EpochSeconds | null, EpochSeconds | null, EpochSeconds | null>;
}

export interface AccountsTables {
  users: UsersTable;
  deleted_uids: DeletedUidsTable;
  user_preferences: UserPreferencesTable;
  app_passwords: AppPasswordsTable;
  sessions: SessionsTable;
  throttle: ThrottleTable;
  job_leases: JobLeasesTable;
}

/**
 * The users columns a User is made of: the row mapping of the table users, shared by the stores that
 * read a user (the user store, and the grant store with an access token).
 */
export type UserColumns = Pick<
  UsersTable,
  "uid" | "display_name" | "email" | "enabled" | "created_at" | "language" | "timezone"
> & {
  email_verified: number;
  /** Membership of `admin` (isAdminOf): 1/0 on SQLite, a boolean on PostgreSQL. */
  is_admin: number | boolean;
};

/**
 * Whether the user `uidColumn` names is a member of `admin`, as the column `is_admin` of the
 * statement that reads the user: being an administrator has one source, the group (migration 0026),
 * and costs no statement of its own (an indexed EXISTS on group_members' primary key).
 */
export function isAdminOf(uidColumn: string) {
  return sql<
    number | boolean
  >`EXISTS (SELECT 1 FROM group_members m WHERE m.gid = ${ADMIN_GROUP} AND m.uid = ${sql.ref(uidColumn)})`.as("is_admin");
}

/** A users row as the domain's User (also for stores that read the user with another row). */
export function userFromRow(row: UserColumns): User {
  return {
    uid: row.uid,
    displayName: row.display_name,
    email: row.email,
    emailVerified: row.email_verified === 1,
    enabled: row.enabled === 1,
    isAdmin: Number(row.is_admin) === 1,
    createdAt: row.created_at,
    language: row.language,
    timeZone: row.timezone,
  };
}
