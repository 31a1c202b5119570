import type {
  AppPasswordStore,
  AvatarStore,
  PasswordConfirmationStore,
  PreferenceStore,
  SessionStore,
  User,
  UserStore,
} from "../../../src/accounts/ports.js";
import type { AuditStore } from "../../../src/audit/ports.js";
import type { GroupStore } from "../../../src/groups/ports.js";
import type { JobLeaseStore } from "../../../src/jobs/ports.js";
import type { LoginFlowStore } from "../../../src/login-flow/ports.js";
import type { NotificationStore } from "../../../src/notifications/ports.js";
import { DEFAULT_CLIENTS } from "../../../src/oauth/domain/default-clients.js";
import type { ClientStore } from "../../../src/oauth/ports.js";
import type {
  PasskeyStore,
  RecoveryCodeStore,
  SecondFactorOverview,
  TotpStore,
  WebAuthnChallengeStore,
} from "../../../src/second-factor/ports.js";
import {
  MemoryAppPasswordStore,
  MemoryAvatarStore,
  MemoryPasswordConfirmationStore,
  MemoryPreferenceStore,
  MemorySessionStore,
} from "./accounts-credentials.js";
import { MemoryUserStore } from "./accounts-users.js";
import { MemoryAuditStore } from "./audit.js";
import { MemoryGroupStore } from "./groups.js";
import { MemoryJobLeaseStore } from "./jobs.js";
import { MemoryLoginFlowStore } from "./login-flow.js";
import { MemoryNotificationStore } from "./notifications.js";
import { MemoryClientStore } from "./oauth-clients.js";
import {
  MemoryPasskeyStore,
  MemoryRecoveryCodeStore,
  MemorySecondFactorOverview,
  MemoryTotpStore,
  MemoryWebAuthnChallengeStore,
} from "./second-factor.js";
import { MemoryTables } from "./tables.js";

/** The stores of the domains' ports.ts, one implementation each, as the contracts (test/contracts) hold them to. */
export interface DomainStores {
  users: UserStore;
  sessions: SessionStore;
  passwordConfirmations: PasswordConfirmationStore;
  appPasswords: AppPasswordStore;
  avatars: AvatarStore;
  preferences: PreferenceStore;
  groups: GroupStore;
  audit: AuditStore;
  notifications: NotificationStore;
  totp: TotpStore;
  recoveryCodes: RecoveryCodeStore;
  passkeys: PasskeyStore;
  challenges: WebAuthnChallengeStore;
  secondFactorOverview: SecondFactorOverview;
  jobLeases: JobLeaseStore;
  loginFlows: LoginFlowStore;
  /** With ownCloud's default clients seeded, as the SQL store seeds them on first use. */
  clients: ClientStore;
}

/** Every memory store over one set of tables, so a user's deletion cascades as on a database. */
export function memoryStores(tables = new MemoryTables()) {
  const sessions = new MemorySessionStore(tables);
  const totp = new MemoryTotpStore(tables);
  const recoveryCodes = new MemoryRecoveryCodeStore(tables);
  const passkeys = new MemoryPasskeyStore(tables);
  const appPasswords = new MemoryAppPasswordStore(tables);
  return {
    tables,
    users: new MemoryUserStore(tables),
    sessions,
    passwordConfirmations: new MemoryPasswordConfirmationStore(sessions),
    appPasswords,
    avatars: new MemoryAvatarStore(tables),
    preferences: new MemoryPreferenceStore(tables),
    groups: new MemoryGroupStore(tables),
    audit: new MemoryAuditStore(),
    notifications: new MemoryNotificationStore(tables),
    totp,
    recoveryCodes,
    passkeys,
    challenges: new MemoryWebAuthnChallengeStore(),
    secondFactorOverview: new MemorySecondFactorOverview({ totp, recoveryCodes, passkeys }),
    jobLeases: new MemoryJobLeaseStore(),
    loginFlows: new MemoryLoginFlowStore(tables, appPasswords),
    clients: new MemoryClientStore(tables, DEFAULT_CLIENTS),
  } satisfies DomainStores & { tables: MemoryTables };
}

/** A user with nothing set but `uid` (enabled, no address, no language), with `overrides`. */
export function blankUser(uid: string, overrides: Partial<User> = {}): User {
  return {
    uid,
    displayName: uid,
    email: null,
    emailVerified: false,
    enabled: true,
    isAdmin: false,
    createdAt: 0,
    language: null,
    timeZone: null,
    ...overrides,
  };
}

/** Users inserted straight into the memory user store (no password), for a service's unit test. */
export async function addUsers(stores: Pick<DomainStores, "users">, ...uids: string[]): Promise<void> {
  for (const uid of uids) {
    await stores.users.insert(blankUser(uid), null, { reuseDeletedUid: false });
  }
}
