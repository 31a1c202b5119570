/**
 * The activity types a user can show or hide in the stream (docs/upstream/nextcloud-activity.md
 * §4.2, the per-type stream settings of the API v2 era). Types not listed here (published by other
 * apps or by an admin) cannot be hidden and always show under `all`, `self`, `by` and `filter`.
 */
export interface StreamSettingType {
  type: string;
  description: string;
  defaultEnabled: boolean;
}

export const STREAM_SETTING_TYPES: readonly StreamSettingType[] = [
  { type: "file_created", description: "A file or folder has been created", defaultEnabled: true },
  { type: "file_changed", description: "A file or folder has been changed", defaultEnabled: true },
  { type: "file_deleted", description: "A file or folder has been deleted", defaultEnabled: true },
  { type: "file_restored", description: "A file or folder has been restored", defaultEnabled: true },
  { type: "shared", description: "A file or folder has been shared", defaultEnabled: true },
  { type: "remote_share", description: "A file or folder was shared from another server", defaultEnabled: true },
  { type: "public_links", description: "A file or folder shared by public link was downloaded", defaultEnabled: true },
  { type: "security", description: "An app was given or lost access to your account", defaultEnabled: true },
];

export type StreamSettings = Record<string, boolean>;

/** The user's stored choices over the defaults: every known type, in table order. */
export function effectiveStreamSettings(stored: ReadonlyMap<string, boolean>): StreamSettings {
  const out: StreamSettings = {};
  for (const setting of STREAM_SETTING_TYPES) out[setting.type] = stored.get(setting.type) ?? setting.defaultEnabled;
  return out;
}

/** Validates `{"stream": {"<type>": true|false}}`; returns the changes or the problem. */
export function parseStreamSettingsUpdate(body: unknown): Map<string, boolean> | string {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return 'the body must be {"stream": {"<type>": true|false}}';
  const stream = (body as Record<string, unknown>).stream;
  if (stream === null || typeof stream !== "object" || Array.isArray(stream)) {
    return 'the body must be {"stream": {"<type>": true|false}}';
  }
  const changes = new Map<string, boolean>();
  for (const [type, value] of Object.entries(stream as Record<string, unknown>)) {
    if (!STREAM_SETTING_TYPES.some((s) => s.type === type)) {
      return `unknown activity type "${type}"; known: ${STREAM_SETTING_TYPES.map((s) => s.type).join(", ")}`;
    }
    if (typeof value !== "boolean") return `stream.${type} must be true or false`;
    changes.set(type, value);
  }
  return changes;
}

/** The known types the user switched off: the stream query excludes them. */
export function hiddenTypes(settings: StreamSettings): string[] {
  return Object.entries(settings)
    .filter(([, enabled]) => !enabled)
    .map(([type]) => type);
}
