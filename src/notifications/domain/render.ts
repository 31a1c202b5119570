import { createHash } from "node:crypto";
import type { MessageKey, Translator } from "../../i18n/index.js";
import { ADMIN_MESSAGE, type NotificationKind, type NotificationParams, type SecurityKind } from "./kinds.js";

/** A notification as stored: its kind and the parameters of its text, not the text itself. */
export interface StoredNotification {
  id: number;
  uid: string;
  kind: NotificationKind;
  params: NotificationParams;
  objectType: string;
  objectId: string;
  /** Epoch seconds. */
  createdAt: number;
}

/** An action a client may offer (none of Keystream's notifications has one). */
export interface NotificationAction {
  label: string;
  link: string;
  type: string;
  primary: boolean;
}

/**
 * A notification as Nextcloud's API v2 answers it (nextcloud/notifications
 * lib/Controller/EndpointController.php notificationToArray, docs/ocs-endpoint-v2.md "Notification
 * Element"): optional strings are "", optional lists []. The rich texts are left empty (the plain
 * `subject` and `message` are complete); a client shows those when the rich ones are empty.
 */
export interface NotificationElement {
  notification_id: number;
  app: string;
  user: string;
  datetime: string;
  object_type: string;
  object_id: string;
  subject: string;
  message: string;
  link: string;
  subjectRich: string;
  subjectRichParameters: unknown[];
  messageRich: string;
  messageRichParameters: unknown[];
  icon: string;
  shouldNotify: boolean;
  actions: NotificationAction[];
}

/** The app Keystream's own notifications name; an administrator's message is nextcloud/notifications' `admin_notifications`. */
export const KEYSTREAM_APP = "keystream";
export const ADMIN_APP = "admin_notifications";

/**
 * The personal settings page, where a user revokes access (src/http/console/controllers/settings.ts;
 * its path is SETTINGS_PAGES in src/http/console/settings-sections.ts).
 */
const PERSONAL_SETTINGS_PATH = "/index.php/settings/personal";
/** The activity app's icons (src/http/routes/activity-page.ts): same-origin SVGs. */
const ICONS = "/index.php/apps/activity/img";

/** `2026-11-27T13:33:12+00:00`, PHP's `DateTime::format('c')` in UTC, as upstream writes `datetime`. */
export function iso8601(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** Each kind's texts (keys written out: test/i18n/catalogues.test.ts finds every key used). */
const TEXTS: Record<SecurityKind, { subject: MessageKey; message: MessageKey }> = {
  login_flow_granted: {
    subject: "notifications:login_flow_granted.subject",
    message: "notifications:login_flow_granted.message",
  },
  oauth_client_authorized: {
    subject: "notifications:oauth_client_authorized.subject",
    message: "notifications:oauth_client_authorized.message",
  },
  app_password_created: {
    subject: "notifications:app_password_created.subject",
    message: "notifications:app_password_created.message",
  },
  password_changed: { subject: "notifications:password_changed.subject", message: "notifications:password_changed.message" },
  second_factor_added: {
    subject: "notifications:second_factor_added.subject",
    message: "notifications:second_factor_added.message",
  },
  second_factor_removed: {
    subject: "notifications:second_factor_removed.subject",
    message: "notifications:second_factor_removed.message",
  },
};

/** A second factor's provider as the user knows it (the second-factor pages' names). */
const PROVIDER_NAMES: Record<string, MessageKey> = {
  totp: "secondFactor:provider.totp",
  backup_codes: "secondFactor:provider.backup_codes",
  webauthn: "secondFactor:provider.webauthn",
};

function securityTexts(kind: SecurityKind, params: NotificationParams, t: Translator["t"]): { subject: string; message: string } {
  const values: Record<string, string> = { ...params };
  if (params.provider !== undefined) {
    const name = PROVIDER_NAMES[params.provider];
    values.provider = name === undefined ? params.provider : t(name);
  }
  return { subject: t(TEXTS[kind].subject, values), message: t(TEXTS[kind].message, values) };
}

/** One stored notification in the reader's language, with absolute links under `baseUrl`. */
export function renderNotification(n: StoredNotification, translator: Translator, baseUrl: string): NotificationElement {
  const admin = n.kind === ADMIN_MESSAGE;
  const texts =
    n.kind === ADMIN_MESSAGE
      ? { subject: n.params.subject ?? "", message: n.params.message ?? "" }
      : securityTexts(n.kind, n.params, translator.t);
  return {
    notification_id: n.id,
    app: admin ? ADMIN_APP : KEYSTREAM_APP,
    user: n.uid,
    datetime: iso8601(n.createdAt),
    object_type: n.objectType,
    object_id: n.objectId,
    subject: texts.subject,
    message: texts.message,
    link: admin ? "" : `${baseUrl}${PERSONAL_SETTINGS_PATH}`,
    subjectRich: "",
    subjectRichParameters: [],
    messageRich: "",
    messageRichParameters: [],
    icon: `${baseUrl}${ICONS}/${admin ? "activity" : "security"}.svg`,
    shouldNotify: true,
    actions: [],
  };
}

/**
 * The list's entity tag: upstream's is the MD5 of the ids' JSON (EndpointController generateETag);
 * the language is part of it here, so a reader who changed language gets the texts again.
 */
export function listEtag(ids: readonly number[], language: string): string {
  return `"${createHash("md5")
    .update(JSON.stringify([language, ids]))
    .digest("hex")}"`;
}

/** RFC 9110 §13.1.2 If-None-Match: `*`, or one of the listed tags (weak comparison). */
export function matchesIfNoneMatch(etag: string, ifNoneMatch: string | undefined): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}
