import { AppPasswords } from "../accounts/app-passwords.js";
import { Avatars } from "../accounts/avatars.js";
import { PasswordConfirmations } from "../accounts/password-confirmation.js";
import type { SessionEndObserver } from "../accounts/ports.js";
import { UserPreferences } from "../accounts/preferences.js";
import { Sessions } from "../accounts/sessions.js";
import { UserDirectory, type UserDirectoryListeners } from "../accounts/users.js";
import type { Job } from "../jobs/scheduler.js";
import { SqlAppPasswordStore } from "../storage/stores/accounts/account-app-password-store.js";
import { SqlAvatarStore } from "../storage/stores/accounts/account-avatar-store.js";
import { SqlPasswordConfirmationStore } from "../storage/stores/accounts/account-password-confirmation-store.js";
import { SqlPreferenceStore } from "../storage/stores/accounts/account-preference-store.js";
import { SqlSessionStore } from "../storage/stores/accounts/account-session-store.js";
import { SqlUserStore } from "../storage/stores/accounts/account-user-store.js";
import type { Foundation, Module } from "./foundation.js";

export interface AccountsListeners {
  /** Told when sessions end (a user disabled or deleted, a sign-out): back-channel logout, push. */
  sessionEnds: readonly SessionEndObserver[];
  users: UserDirectoryListeners;
  appPasswordCreated: (uid: string, name: string) => Promise<void>;
  appPasswordsRevoked: (uid: string) => Promise<void>;
}

export interface AccountsServices {
  users: UserDirectory;
  preferences: UserPreferences;
  appPasswords: AppPasswords;
  sessions: Sessions;
  /** When each session's user last proved the password (accounts/password-confirmation.ts). */
  passwordConfirmations: PasswordConfirmations;
  avatars: Avatars;
}

/** Users, their sessions, preferences, app passwords and avatars on SQL storage; expired sessions go hourly. */
export function wireAccounts(
  { db, clock, settings, audit }: Pick<Foundation, "db" | "clock" | "settings" | "audit">,
  listeners: AccountsListeners,
): Module<AccountsServices> {
  const sessionStore = new SqlSessionStore(db);
  const users = new UserDirectory(new SqlUserStore(db), sessionStore, clock, listeners.sessionEnds, audit, listeners.users);
  const sessions = new Sessions(sessionStore, clock, () => settings.get("session.lifetime"), listeners.sessionEnds);
  const expiredSessions: Job = {
    name: "accounts:expired-sessions",
    intervalSeconds: () => 3600,
    run: async () => {
      await sessions.deleteExpired();
    },
  };
  const services = {
    users,
    preferences: new UserPreferences(new SqlPreferenceStore(db), users),
    appPasswords: new AppPasswords(new SqlAppPasswordStore(db), clock, audit, {
      created: listeners.appPasswordCreated,
      revoked: listeners.appPasswordsRevoked,
    }),
    sessions,
    passwordConfirmations: new PasswordConfirmations(new SqlPasswordConfirmationStore(db), clock),
    avatars: new Avatars(new SqlAvatarStore(db), clock),
  };
  return { services, jobs: [expiredSessions] };
}
