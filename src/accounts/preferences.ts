import { supportedLanguage } from "../i18n/languages.js";
import { succeeded } from "../refusal.js";
import { type AccountRefusal, type AccountResult, accountRefusal } from "./errors.js";
import type { PreferenceStore, UserRowPreference } from "./ports.js";
import type { UserDirectory } from "./users.js";

/** Preferences that live on the user row, read with every authenticated request. */
const USER_ROW_PREFERENCES = {
  "core.lang": "language",
  "core.timezone": "timeZone",
} as const satisfies Record<string, UserRowPreference>;

function userRowColumn(app: string, key: string): UserRowPreference | undefined {
  const name = `${app}.${key}`;
  return Object.hasOwn(USER_ROW_PREFERENCES, name) ? USER_ROW_PREFERENCES[name as keyof typeof USER_ROW_PREFERENCES] : undefined;
}

/** True for an IANA time-zone name this Node (ICU) knows, such as `Europe/Berlin` or `UTC`. */
export function isTimeZone(name: string): boolean {
  if (name === "" || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The one check of a preference's value (occ and the personal page both go through `set`). */
function normalizedValue(column: UserRowPreference | undefined, value: string): AccountResult<string> {
  if (column === "language") {
    const language = supportedLanguage(value);
    return language ? succeeded(language) : accountRefusal("invalid_preference", "unsupportedLanguage", { value });
  }
  if (column === "timeZone" && !isTimeZone(value)) {
    return accountRefusal("invalid_preference", "invalidTimeZone", { value });
  }
  if (value.length > 4000) return accountRefusal("invalid_preference", "preferenceTooLong");
  return succeeded(value);
}

/**
 * `settings email` is the account's email address, as ownCloud's and Nextcloud's user:setting
 * treat it (core/Command/User/Setting.php sets it with setEMailAddress): read from and written to
 * the user through UserDirectory, so the address rules (format, one account per address) hold.
 */
function isEmailSetting(app: string, key: string): boolean {
  return app === "settings" && key === "email";
}

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The refusal of an app or key name outside NAME_PATTERN, else undefined. */
function nameRefusal(kind: "app" | "key", name: string): AccountRefusal | undefined {
  if (!NAME_PATTERN.test(name) || (kind === "app" && name.length > 32)) {
    return accountRefusal("invalid_preference", "invalidPreferenceName", { kind, name });
  }
  return undefined;
}

/**
 * ownCloud's per-user preferences (`./occ user:setting`). The language and time zone are columns
 * of the user row, so that every request knows them without another query; the rest is a table.
 */
export class UserPreferences {
  constructor(
    private readonly store: PreferenceStore,
    private readonly users: UserDirectory,
  ) {}

  async get(uid: string, app: string, key: string): Promise<AccountResult<string | undefined>> {
    const user = await this.users.require(uid);
    if (!user.ok) return user;
    if (isEmailSetting(app, key)) return succeeded(user.value.email ?? undefined);
    const column = userRowColumn(app, key);
    if (column) return succeeded(user.value[column] ?? undefined);
    return succeeded(await this.store.get(uid, app, key));
  }

  /** Every preference of a user, by app then key (optionally of one app only). */
  async list(uid: string, app?: string): Promise<AccountResult<Record<string, Record<string, string>>>> {
    const found = await this.users.require(uid);
    if (!found.ok) return found;
    const user = found.value;
    const result: Record<string, Record<string, string>> = {};
    const add = (a: string, k: string, v: string) => {
      result[a] ??= {};
      (result[a] as Record<string, string>)[k] = v;
    };
    for (const stored of await this.store.list(uid, app)) add(stored.app, stored.key, stored.value);
    if (app === undefined || app === "core") {
      if (user.language !== null) add("core", "lang", user.language);
      if (user.timeZone !== null) add("core", "timezone", user.timeZone);
    }
    if ((app === undefined || app === "settings") && user.email !== null) add("settings", "email", user.email);
    return succeeded(result);
  }

  /** Sets a preference; the value is checked (language, time zone) and stored normalised. */
  async set(uid: string, app: string, key: string, value: string): Promise<AccountResult<string>> {
    const badName = nameRefusal("app", app) ?? nameRefusal("key", key);
    if (badName) return badName;
    if (isEmailSetting(app, key)) {
      const updated = await this.users.updateProfile(uid, { email: value });
      return updated.ok ? succeeded(value) : updated;
    }
    const column = userRowColumn(app, key);
    const normalized = normalizedValue(column, value);
    if (!normalized.ok) return normalized;
    const user = await this.users.require(uid);
    if (!user.ok) return user;
    const stored = normalized.value;
    if (column) await this.store.setOnUser(uid, column, stored);
    else await this.store.put(uid, app, key, stored);
    return succeeded(stored);
  }

  /** Deletes a preference; false when it was not set. */
  async delete(uid: string, app: string, key: string): Promise<AccountResult<boolean>> {
    const user = await this.users.require(uid);
    if (!user.ok) return user;
    if (isEmailSetting(app, key)) {
      if (user.value.email === null) return succeeded(false);
      const cleared = await this.users.updateProfile(uid, { email: "" });
      return cleared.ok ? succeeded(true) : cleared;
    }
    const column = userRowColumn(app, key);
    return succeeded(await (column ? this.store.clearOnUser(uid, column) : this.store.delete(uid, app, key)));
  }
}
