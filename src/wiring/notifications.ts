import type { UserPreferences } from "../accounts/preferences.js";
import type { Job } from "../jobs/scheduler.js";
import { SWITCH_PREFERENCE_APP } from "../notifications/domain/kinds.js";
import { Notifications } from "../notifications/service.js";
import type { PushService } from "../push/service.js";
import type { Result } from "../refusal.js";
import { SqlNotificationStore } from "../storage/stores/notifications/notification-store.js";
import type { Foundation, Module } from "./foundation.js";

/**
 * Notifications (Nextcloud's notifications app): each kind switchable in personal settings, kept
 * as user preferences; added and dismissed ones reach the push sockets; expired and surplus ones
 * go once a day (docs/decisions.md "Notifications"). What a user is told of (an app password or a
 * Login Flow grant, a password or second factor changed, an OAuth client authorized) reaches it
 * through the listeners the composition root (src/services.ts) gives those services.
 */
export function wireNotifications(
  { db, clock, log }: Pick<Foundation, "db" | "clock" | "log">,
  preferences: UserPreferences,
  push: PushService,
): Module<{ notifications: Notifications }> {
  const notifications = new Notifications(
    new SqlNotificationStore(db),
    {
      // A switch belongs to an existing user and has a valid name and value: a refusal is a failure here.
      get: async (uid, key) => storedOrFailure(await preferences.get(uid, SWITCH_PREFERENCE_APP, key)),
      set: async (uid, key, value) => {
        storedOrFailure(await preferences.set(uid, SWITCH_PREFERENCE_APP, key, value));
      },
    },
    clock,
    {
      changed: (uid) => push.notificationsChanged(uid),
      failed: (error, kind) => log.warn({ event: "notification_failed", kind, err: error }, "notification not written"),
    },
  );
  const purge: Job = {
    name: "notifications:purge",
    intervalSeconds: () => 86_400,
    run: async () => {
      await notifications.purge();
    },
  };
  return { services: { notifications }, jobs: [purge] };
}

/** The preference's value; a refusal becomes an Error, which Notifications reports through `failed`. */
function storedOrFailure<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}
