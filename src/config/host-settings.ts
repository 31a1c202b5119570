import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { supportedLanguage } from "../i18n/languages.js";
import {
  booleanSetting,
  ConfigurationError,
  enumSetting,
  integerSetting,
  readJsonObject,
  SettingTypeError,
  stringSetting,
  validateObject,
} from "./setting.js";

/**
 * Host settings: ownCloud's `config.php` system values, stored as JSON in the data directory
 * (`config.json`) and set with `./occ config:system:set NAME --value=V`. Every setting is declared
 * here once (config/setting.ts): occ's `--value` and every read of the file are checked against
 * the same declaration.
 */

/** An absolute http(s) base URL without query, fragment or credentials; no trailing slash. */
function normalizeBaseUrl(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new SettingTypeError("an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SettingTypeError("an http or https URL");
  if (url.search || url.hash || url.username || url.password) {
    throw new SettingTypeError("a base URL without query, fragment or credentials");
  }
  return url.toString().replace(/\/+$/, "");
}

function baseUrlSetting(description: string) {
  return stringSetting(description, "", { expected: "an absolute http(s) URL or empty", normalize: normalizeBaseUrl });
}

/** A comma-separated list of origins (`https://app.example.com`), normalised; empty for none. */
function normalizeOrigins(text: string): string {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new SettingTypeError(`comma-separated origins like https://app.example.com ("${item}" is not)`);
      }
      if (url.origin === "null" || url.pathname !== "/" || url.search || url.hash) {
        throw new SettingTypeError(`comma-separated origins: scheme, host and port only ("${item}" is not)`);
      }
      return url.origin;
    })
    .join(",");
}

function normalizeLanguage(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  const language = supportedLanguage(trimmed);
  if (!language) throw new SettingTypeError("one of en, de, fr, es, it, nl");
  return language;
}

function originListSetting(description: string) {
  return stringSetting(description, "", {
    expected: "comma-separated origins like https://app.example.com",
    normalize: normalizeOrigins,
  });
}

/** An absolute path (a file the server reads), or empty for none. */
function normalizeAbsolutePath(text: string): string {
  const trimmed = text.trim();
  if (trimmed !== "" && !path.isAbsolute(trimmed)) throw new SettingTypeError("an absolute file path");
  return trimmed;
}

export const hostSettingDefinitions = {
  "overwrite.cli.url": baseUrlSetting(
    "Canonical base URL (e.g. https://cloud.example.com); every absolute URL the server builds uses it.",
  ),
  token_auth_enforced: booleanSetting(
    "When true, HTTP Basic with the account password is refused; app passwords and tokens still work.",
    false,
  ),
  twofactor_enforced: booleanSetting(
    "When true, every user must have a second factor: one without is led to set one up right after the password (./occ twofactorauth:enforce).",
    false,
  ),
  allow_user_to_change_display_name: booleanSetting(
    "When false (as in ownCloud), users cannot change their own full name and email on the personal page.",
    true,
  ),
  maintenance: booleanSetting("When true, every endpoint but status.php answers 503.", false),
  "session.lifetime": integerSetting("Seconds a login session lasts without activity.", 86_400, 60, 31_536_000),
  "oauth2.refresh_token_lifetime": integerSetting(
    "Seconds an OAuth refresh token lives, counted from each rotation (default 90 days).",
    7_776_000,
    3600,
    315_360_000,
  ),
  "oauth2.refresh_reuse_grace": integerSetting(
    "Seconds after a refresh during which the same (rotated) refresh token gets the same new pair again, for clients that lost the response; 0 = any reuse revokes the grant.",
    0,
    0,
    60,
  ),
  "oauth2.new_clients_allowed_groups": stringSetting(
    "The allowed groups a new OAuth2 client starts with, comma-separated (for example admin: deny by default); empty: everyone may use it, as in ownCloud.",
    "",
    {
      expected: "comma-separated group names",
      normalize: (text) =>
        [
          ...new Set(
            text
              .split(",")
              .map((item) => item.trim())
              .filter(Boolean),
          ),
        ].join(","),
    },
  ),
  "oauth2.cleanup_interval": integerSetting(
    "Seconds between runs of the oauth2:cleanup job, which deletes codes and tokens a week after expiry.",
    86_400,
    60,
    2_592_000,
  ),
  "oidc.key_grace_period": integerSetting(
    "Seconds an OpenID Connect signing key replaced by ./occ oidc:rotate-key stays published (JWKS), so ID tokens it signed still verify (default 7 days).",
    604_800,
    3600,
    31_536_000,
  ),
  "oidc.root_discovery": booleanSetting(
    "When true, /.well-known/openid-configuration also answers at the root. Off by default: the ownCloud desktop client switches to its OIDC mode when it finds that document.",
    false,
  ),
  "oidc.dynamic_registration": enumSetting(
    "Dynamic client registration (RFC 7591) at /index.php/apps/oauth2/api/v1/register: off (default), or loopback: native applications with loopback redirect URIs (http://127.0.0.1, http://[::1], http://localhost, any port) may register themselves, such as the ownCloud desktop client in its OpenID Connect mode.",
    "off",
    ["off", "loopback"],
  ),
  "cors.allowed-domains": originListSetting(
    "Comma-separated origins whose browsers may call the OAuth token and userinfo endpoints (CORS).",
  ),
  default_language: stringSetting(
    "Language of pages and activity texts for people with no language of their own and no Accept-Language we have: en, de, fr, es, it or nl (empty = English).",
    "",
    { expected: "one of en, de, fr, es, it, nl, or empty", normalize: normalizeLanguage },
  ),
  activity_expire_days: integerSetting(
    "Days an activity stays in the stream; a daily job (and ./occ activity:expire) deletes older ones.",
    365,
    1,
    36_500,
  ),
  "audit.retention_days": integerSetting(
    "Days an audit event (sign-ins, administrative changes) is kept; a daily job deletes older ones.",
    180,
    1,
    36_500,
  ),
  "activity.file_log": stringSetting(
    "Absolute path of the proxy's keystream_files JSON access log (deploy/nginx/keystream-files-log.conf); every node follows its own, turning successful WebDAV writes into file activities. Empty: off.",
    "",
    { expected: "an absolute file path or empty", normalize: normalizeAbsolutePath },
  ),
} as const;

export type HostSettingName = keyof typeof hostSettingDefinitions;
export type HostSettingValue<N extends HostSettingName> = (typeof hostSettingDefinitions)[N]["defaultValue"] extends boolean
  ? boolean
  : (typeof hostSettingDefinitions)[N]["defaultValue"] extends number
    ? number
    : string;

export function isHostSettingName(name: string): name is HostSettingName {
  return Object.hasOwn(hostSettingDefinitions, name);
}

/** Where a running server reports a config.json it cannot use (services.ts gives its logger). */
export interface HostSettingsLog {
  error(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/**
 * Reads `config.json` from the data directory. The file is re-read when its modification time
 * changes (checked at most once a second), so `./occ config:system:set` takes effect on a
 * running server without a restart; after a read the file system refused (its owner or mode),
 * at every check until one succeeds, since `chown` and `chmod` change no modification time.
 * Every read is validated against the declarations: a file that fails (syntax, unknown key,
 * wrong type) is refused as a whole. Before any good read that is an error (start-up, occ);
 * after one, the last good values stay in force, the problem is logged once per change of the
 * file and `problem()` reports it until the file is fixed.
 */
export class HostSettings {
  readonly file: string;
  private values: Record<string, unknown> = {};
  private loaded = false;
  private loadedMtimeMs = -1;
  private checkedAt = 0;
  private lastProblem: string | undefined;
  private readonly listeners: Array<(name: HostSettingName, value: boolean | number | string | undefined) => void> = [];

  constructor(
    dataDir: string,
    private readonly overrides: Partial<Record<HostSettingName, unknown>> = {},
    private readonly log?: HostSettingsLog,
  ) {
    this.file = path.join(dataDir, "config.json");
  }

  get<N extends HostSettingName>(name: N): HostSettingValue<N> {
    if (Object.hasOwn(this.overrides, name)) return this.overrides[name] as HostSettingValue<N>;
    this.refresh();
    const value = this.values[name];
    return (value === undefined ? hostSettingDefinitions[name].defaultValue : value) as HostSettingValue<N>;
  }

  /** The stored value, or undefined when the setting was never set (`config:system:get` exits 1 then). */
  getStored(name: HostSettingName): unknown {
    this.refresh(true);
    return this.values[name];
  }

  /**
   * Reads the file now; throws when it is unusable and no good version was read before. The
   * server calls it at start so that a broken config.json stops it with the file's message.
   */
  load(): void {
    this.refresh(true);
  }

  /**
   * Undefined while the last read of config.json was valid (or there is none); else why it is not
   * (file, key, expected type). Readiness (/health/ready) and status.php report it. Re-reads a
   * changed file (at most once a second, like get()); a file broken before any good read is the
   * problem too, rather than an exception.
   */
  problem(): string | undefined {
    try {
      this.refresh();
    } catch {
      // Never read fine yet: refused() recorded why.
    }
    return this.lastProblem;
  }

  /** Validated write through a temporary file and rename: a crash never leaves half a file. */
  set(name: HostSettingName, value: boolean | number | string): void {
    this.refreshForWrite();
    this.writeAll({ ...this.values, [name]: value });
    this.changed(name, value);
  }

  delete(name: HostSettingName): boolean {
    this.refreshForWrite();
    if (!Object.hasOwn(this.values, name)) return false;
    const next = { ...this.values };
    delete next[name];
    this.writeAll(next);
    this.changed(name, undefined);
    return true;
  }

  /**
   * Adds a listener told of every change written through this instance (`set`, `delete`; not an
   * edit of the file by hand): the audit log. A throwing listener is ignored: the change is made.
   */
  observeChanges(listener: (name: HostSettingName, value: boolean | number | string | undefined) => void): void {
    this.listeners.push(listener);
  }

  private changed(name: HostSettingName, value: boolean | number | string | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(name, value);
      } catch {
        // The setting is written; what a listener does with it is no part of the write.
      }
    }
  }

  /** A write over a broken file would replace what the operator typed with the last good values. */
  private refreshForWrite(): void {
    this.refresh(true);
    if (this.lastProblem) throw new ConfigurationError(`${this.lastProblem}; fix the file first`);
  }

  private writeAll(values: Record<string, unknown>): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.file);
    this.values = values;
    this.loaded = true;
    this.lastProblem = undefined;
    this.loadedMtimeMs = fs.statSync(this.file).mtimeMs;
  }

  private refresh(force = false): void {
    const now = Date.now();
    if (!force && now - this.checkedAt < 1000) return;
    this.checkedAt = now;
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(this.file).mtimeMs;
    } catch (error) {
      // No file: every default applies (a valid state: a fresh install has none until something is set).
      if ((error as NodeJS.ErrnoException).code === "ENOENT") this.accept({}, -1);
      else this.refused(error as Error, -2);
      return;
    }
    if (mtimeMs === this.loadedMtimeMs) return;
    try {
      const { values, problems } = validateObject(hostSettingDefinitions, readJsonObject(this.file));
      if (problems.length > 0) throw new ConfigurationError(`${this.file}: ${problems.join("; ")}`);
      this.accept(values, mtimeMs);
    } catch (error) {
      // A file that could not be read (its owner or mode, an I/O error) is read again at the next
      // check: fixing its owner or mode changes no modification time, and the server must notice.
      this.refused(error as Error, isReadError(error) ? this.loadedMtimeMs : mtimeMs);
    }
  }

  private accept(values: Record<string, unknown>, mtimeMs: number): void {
    if (this.lastProblem) this.log?.info({ event: "host_settings_recovered", file: this.file }, `${this.file} is valid again`);
    this.values = values;
    this.loaded = true;
    this.loadedMtimeMs = mtimeMs;
    this.lastProblem = undefined;
  }

  /** Not usable: an error before any good read; else keep the last good values and say so once. */
  private refused(error: Error, mtimeMs: number): void {
    const message =
      (error.message.startsWith(this.file) ? error.message : `${this.file}: ${error.message}`) +
      permissionHint(error, path.dirname(this.file));
    if (!this.loaded) {
      // No good version to keep: the reader fails (the server at start), and problem() says why
      // until the file is fixed.
      this.lastProblem = message;
      throw isReadError(error) ? new ConfigurationError(message) : error;
    }
    // Logged once per change of the file: the same broken file is not parsed again every second.
    this.loadedMtimeMs = mtimeMs;
    if (message !== this.lastProblem) {
      this.log?.error(
        { event: "host_settings_invalid", file: this.file },
        `${message}; the last valid settings stay in force until the file is fixed`,
      );
    }
    this.lastProblem = message;
  }
}

/** An error of the file system (a `code` such as EACCES or EIO), not of the file's content. */
function isReadError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException).code === "string";
}

/** What to do about a file of `dir` the process may not read: give the data directory to the user it runs as. */
function permissionHint(error: Error, dir: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== "EACCES" && code !== "EPERM") return "";
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    user = `uid ${process.geteuid?.() ?? "?"}`;
  }
  return `; the data directory's files must belong to ${user}, the user this process runs as: chown -R ${user} ${dir}`;
}
