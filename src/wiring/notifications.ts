import type { AppPasswords } from "../accounts/app-passwords.js";
import type { UserPreferences } from "../accounts/preferences.js";
import type { UserDirectory } from "../accounts/users.js";
import type { Clock } from "../clock.js";
import type { JobScheduler } from "../jobs/scheduler.js";
import type { LoginFlowService } from "../login-flow/service.js";
import { SWITCH_PREFERENCE_APP } from "../notifications/domain/kinds.js";
import { Notifications } from "../notifications/service.js";
import type { PushService } from "../push/service.js";
import type { SecondFactors } from "../second-factor/service.js";
import type { Db } from "../storage/database.js";
import { SqlNotificationStore } from "../storage/notification-store.js";

export interface NotificationsSetup {
  db: Db;
  clock: Clock;
  preferences: UserPreferences;
  push: PushService;
  jobs: JobScheduler;
  log: { warn(obj: object, msg: string): void };
  /** What the user is told of: a device or application got access, a credential changed. */
  told: {
    users: UserDirectory;
    appPasswords: AppPasswords;
    loginFlows: LoginFlowService;
    secondFactors: SecondFactors;
  };
}

/**
 * Notifications (Nextcloud's notifications app): each kind switchable in personal settings, kept
 * as user preferences; added and dismissed ones reach the push sockets; expired and surplus ones
 * go once a day (docs/decisions.md "Notifications"). An OAuth client authorized is told by the
 * OAuth service's events, wired with the others' in services.ts.
 */
export function createNotifications(setup: NotificationsSetup): Notifications {
  const { preferences, push, log, told } = setup;
  const notifications = new Notifications(
    new SqlNotificationStore(setup.db),
    {
      get: (uid, key) => preferences.get(uid, SWITCH_PREFERENCE_APP, key),
      set: async (uid, key, value) => {
        await preferences.set(uid, SWITCH_PREFERENCE_APP, key, value);
      },
    },
    setup.clock,
    {
      changed: (uid) => push.notificationsChanged(uid),
      failed: (error, kind) => log.warn({ event: "notification_failed", kind, err: error }, "notification not written"),
    },
  );
  told.loginFlows.observeGrants((uid, clientName) => notifications.loginFlowGranted(uid, clientName));
  told.appPasswords.observeCreations((uid, name) => notifications.appPasswordCreated(uid, name));
  told.users.observePasswordChanges((uid) => notifications.passwordChanged(uid));
  told.secondFactors.observeChanges((uid, provider, change) => notifications.secondFactorChanged(uid, provider, change));
  setup.jobs.register({
    name: "notifications:purge",
    intervalSeconds: () => 86_400,
    run: async () => {
      await notifications.purge();
    },
  });
  return notifications;
}
