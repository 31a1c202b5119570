/**
 * What Keystream notifies a user of (Nextcloud's notifications app API, nextcloud/notifications
 * docs/ocs-endpoint-v2.md): a notification is stored as its kind and the parameters of its text,
 * and rendered in the reader's language when it is read (render.ts), so a change of language
 * applies to the notifications already there.
 */

/** What a user must know about their account: a device or application got access, a credential changed. */
export const SECURITY_KINDS = [
  "login_flow_granted",
  "oauth_client_authorized",
  "app_password_created",
  "password_changed",
  "second_factor_added",
  "second_factor_removed",
] as const;
export type SecurityKind = (typeof SECURITY_KINDS)[number];

/** An administrator's message (`./occ notification:generate`): its texts are stored as given. */
export const ADMIN_MESSAGE = "admin_message";
export type NotificationKind = SecurityKind | typeof ADMIN_MESSAGE;

/**
 * The personal settings' switches, one per kind of event; a switched-off kind is not created.
 * Both second-factor kinds share one switch. An administrator's message has none: it always
 * reaches the user.
 */
export const NOTIFICATION_SWITCHES = ["login_flow", "oauth_client", "app_password", "password", "second_factor"] as const;
export type NotificationSwitch = (typeof NOTIFICATION_SWITCHES)[number];

const SWITCH_OF: Record<SecurityKind, NotificationSwitch> = {
  login_flow_granted: "login_flow",
  oauth_client_authorized: "oauth_client",
  app_password_created: "app_password",
  password_changed: "password",
  second_factor_added: "second_factor",
  second_factor_removed: "second_factor",
};

export function switchOf(kind: NotificationKind): NotificationSwitch | undefined {
  return kind === ADMIN_MESSAGE ? undefined : SWITCH_OF[kind];
}

export function isNotificationKind(value: string): value is NotificationKind {
  return value === ADMIN_MESSAGE || (SECURITY_KINDS as readonly string[]).includes(value);
}

/**
 * Where the switches are kept: the user's preferences (`./occ user:setting UID notifications
 * <switch>`), value "0" for off; absent or anything else is on.
 */
export const SWITCH_PREFERENCE_APP = "notifications";
export const SWITCH_OFF = "0";
export const SWITCH_ON = "1";

/** The values a notification's text is made with (a client's name, a provider id, an admin's text). */
export type NotificationParams = Readonly<Record<string, string>>;

/**
 * The limits of an administrator's message, as nextcloud/notifications lib/Command/Generate.php
 * checks them: a short message of 1 to 255 characters, a long one of at most 4000, an object type
 * and id of at most 64.
 */
export const SHORT_MESSAGE_MAX = 255;
export const LONG_MESSAGE_MAX = 4000;
export const OBJECT_FIELD_MAX = 64;

/** A client or app password name as a notification keeps it (names are at most 255 characters). */
export const NAME_PARAM_MAX = 255;

export type AdminMessageRefusal = "short_message" | "long_message" | "object";

/**
 * Checks an administrator's message; undefined when it may be sent. Lengths count characters
 * (Generate.php counts bytes with strlen; a limit on characters never cuts a letter in two).
 */
export function adminMessageRefusal(message: {
  short: string;
  long: string;
  objectType?: string | undefined;
  objectId?: string | undefined;
}): AdminMessageRefusal | undefined {
  const length = (text: string) => [...text].length;
  if (message.short.trim() === "" || length(message.short) > SHORT_MESSAGE_MAX) return "short_message";
  if (length(message.long) > LONG_MESSAGE_MAX) return "long_message";
  const { objectType, objectId } = message;
  if ((objectType === undefined) !== (objectId === undefined)) return "object";
  if (objectType !== undefined && (objectType === "" || length(objectType) > OBJECT_FIELD_MAX)) return "object";
  if (objectId !== undefined && (objectId === "" || length(objectId) > OBJECT_FIELD_MAX)) return "object";
  return undefined;
}
