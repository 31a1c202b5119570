import type { Clock } from "../clock.js";
import {
  ADMIN_MESSAGE,
  type AdminMessageRefusal,
  adminMessageRefusal,
  NAME_PARAM_MAX,
  NOTIFICATION_SWITCHES,
  type NotificationParams,
  type NotificationSwitch,
  type SecurityKind,
  SWITCH_OFF,
  SWITCH_ON,
  switchOf,
} from "./domain/kinds.js";
import type { StoredNotification } from "./domain/render.js";
import type { NotificationStore, NotificationSwitchStore } from "./ports.js";

/** How many notifications the list answers: the newest 25, as nextcloud/notifications lib/Handler.php get(). */
export const LIST_LIMIT = 25;
/** The daily cleanup keeps at most this many per user (docs/decisions.md "Notifications"). */
export const KEEP_PER_USER = 200;
/** … and none older than this many days. */
export const EXPIRE_DAYS = 90;

export interface NotificationsOptions {
  /** Told the user whose notifications were added or dismissed (push: `notify_notification`). */
  changed: (uid: string) => Promise<void>;
  /** A security notification that could not be written: logged, never failing the act that caused it. */
  failed: (error: unknown, kind: string) => void;
}

export interface AdminMessage {
  short: string;
  long: string;
  objectType?: string | undefined;
  objectId?: string | undefined;
}

export type AdminMessageResult = { ok: true; id: number; replaced: number } | { ok: false; refusal: AdminMessageRefusal };

/**
 * Nextcloud's notifications app, for what Keystream itself must tell a user: a device or
 * application got access, a credential changed (the composition root tells it, services.ts), and
 * an administrator's messages. A security notification is best effort: a switched-off kind is not
 * created, and a failure to write one is reported and never fails the sign-in or change behind it.
 */
export class Notifications {
  constructor(
    private readonly store: NotificationStore,
    private readonly switchStore: NotificationSwitchStore,
    private readonly clock: Clock,
    private readonly options: NotificationsOptions,
  ) {}

  /** A Login Flow v2 grant gave the application calling itself `clientName` an app password. */
  loginFlowGranted(uid: string, clientName: string): Promise<void> {
    return this.security(uid, "login_flow_granted", { name: clientName.slice(0, NAME_PARAM_MAX) });
  }

  /** The user authorized an OAuth client (consent given, or a trusted client's skip; once per new grant). */
  clientAuthorized(uid: string, clientName: string): Promise<void> {
    return this.security(uid, "oauth_client_authorized", { name: clientName.slice(0, NAME_PARAM_MAX) });
  }

  /** An app password named `name` was created (personal settings, the OCS API, occ). */
  appPasswordCreated(uid: string, name: string): Promise<void> {
    return this.security(uid, "app_password_created", { name: name.slice(0, NAME_PARAM_MAX) });
  }

  passwordChanged(uid: string): Promise<void> {
    return this.security(uid, "password_changed", {});
  }

  /** A second factor (provider id: totp, backup_codes, webauthn) was added or removed. */
  secondFactorChanged(uid: string, provider: string, change: "added" | "removed"): Promise<void> {
    return this.security(uid, change === "added" ? "second_factor_added" : "second_factor_removed", { provider });
  }

  private async security(uid: string, kind: SecurityKind, params: NotificationParams): Promise<void> {
    try {
      const which = switchOf(kind);
      if (which !== undefined && (await this.switchStore.get(uid, which)) === SWITCH_OFF) return;
      const now = this.clock.nowSeconds();
      await this.add({ uid, kind, params, objectType: kind, objectId: now.toString(16), createdAt: now });
    } catch (error) {
      this.options.failed(error, kind);
    }
  }

  /**
   * An administrator's message (`./occ notification:generate`, nextcloud/notifications
   * lib/Command/Generate.php): with an object type and id, the user's earlier notifications about
   * that object go first; without, the object is `admin_notifications` and the time in hex.
   */
  async adminMessage(uid: string, message: AdminMessage): Promise<AdminMessageResult> {
    const refusal = adminMessageRefusal(message);
    if (refusal !== undefined) return { ok: false, refusal };
    const now = this.clock.nowSeconds();
    let replaced = 0;
    let object = { type: "admin_notifications", id: now.toString(16) };
    if (message.objectType !== undefined && message.objectId !== undefined) {
      object = { type: message.objectType, id: message.objectId };
      replaced = await this.store.deleteAbout(uid, object.type, object.id);
    }
    const params: NotificationParams =
      message.long === "" ? { subject: message.short } : { subject: message.short, message: message.long };
    const id = await this.add({ uid, kind: ADMIN_MESSAGE, params, objectType: object.type, objectId: object.id, createdAt: now });
    return { ok: true, id, replaced };
  }

  private async add(record: Parameters<NotificationStore["insert"]>[0]): Promise<number> {
    const id = await this.store.insert(record);
    await this.options.changed(record.uid);
    return id;
  }

  /** The user's newest notifications (LIST_LIMIT), newest first. */
  newest(uid: string): Promise<StoredNotification[]> {
    return this.store.newestOf(uid, LIST_LIMIT);
  }

  find(uid: string, id: number): Promise<StoredNotification | undefined> {
    return this.store.findOwn(uid, id);
  }

  /** Dismisses one of the user's notifications; false when it was not theirs or not there. */
  async dismiss(uid: string, id: number): Promise<boolean> {
    const deleted = await this.store.deleteOwn(uid, id);
    if (deleted) await this.options.changed(uid);
    return deleted;
  }

  /** Dismisses all of the user's notifications; how many went. */
  async dismissAll(uid: string): Promise<number> {
    const count = await this.store.deleteAllOf(uid);
    if (count > 0) await this.options.changed(uid);
    return count;
  }

  /** Each switch of the user: on unless they switched it off. */
  async switches(uid: string): Promise<Record<NotificationSwitch, boolean>> {
    const values = await Promise.all(NOTIFICATION_SWITCHES.map((name) => this.switchStore.get(uid, name)));
    return Object.fromEntries(NOTIFICATION_SWITCHES.map((name, i) => [name, values[i] !== SWITCH_OFF])) as Record<
      NotificationSwitch,
      boolean
    >;
  }

  async setSwitches(uid: string, on: Readonly<Record<NotificationSwitch, boolean>>): Promise<void> {
    for (const name of NOTIFICATION_SWITCHES) await this.switchStore.set(uid, name, on[name] ? SWITCH_ON : SWITCH_OFF);
  }

  /** The daily cleanup (docs/decisions.md "Notifications"); how many went. */
  purge(): Promise<number> {
    return this.store.purge(this.clock.nowSeconds() - EXPIRE_DAYS * 86_400, KEEP_PER_USER);
  }
}
