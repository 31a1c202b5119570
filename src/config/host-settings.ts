import fs from "node:fs";
import path from "node:path";

/**
 * Host settings: ownCloud's `config.php` system values, stored as JSON in the data directory
 * (`config.json`) and set with `./occ config:system:set NAME --value=V`. Every setting is declared
 * here with its parser, so a malformed value is refused before anything is written.
 */
interface SettingDefinition<T> {
  description: string;
  defaultValue: T;
  /** Parses the text given on the command line; throws an Error with a clear message if malformed. */
  parse(text: string): T;
}

function booleanSetting(description: string, defaultValue: boolean): SettingDefinition<boolean> {
  return {
    description,
    defaultValue,
    parse(text) {
      const lowered = text.trim().toLowerCase();
      if (lowered === "true" || lowered === "1" || lowered === "yes") return true;
      if (lowered === "false" || lowered === "0" || lowered === "no") return false;
      throw new Error(`expected a boolean (true or false), got "${text}"`);
    },
  };
}

function integerSetting(description: string, defaultValue: number, min: number, max: number): SettingDefinition<number> {
  return {
    description,
    defaultValue,
    parse(text) {
      if (!/^-?\d+$/.test(text.trim())) throw new Error(`expected an integer, got "${text}"`);
      const value = Number(text.trim());
      if (value < min || value > max) throw new Error(`expected an integer from ${min} to ${max}, got ${value}`);
      return value;
    },
  };
}

function baseUrlSetting(description: string): SettingDefinition<string> {
  return {
    description,
    defaultValue: "",
    parse(text) {
      const trimmed = text.trim();
      if (trimmed === "") return "";
      let url: URL;
      try {
        url = new URL(trimmed);
      } catch {
        throw new Error(`expected an absolute http(s) URL, got "${text}"`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new Error(`expected an http or https URL, got "${text}"`);
      }
      if (url.search || url.hash || url.username || url.password) {
        throw new Error("the base URL must not carry a query, fragment or credentials");
      }
      return url.toString().replace(/\/+$/, "");
    },
  };
}

/** A comma-separated list of origins (`https://app.example.com`), normalised; empty for none. */
function originListSetting(description: string): SettingDefinition<string> {
  return {
    description,
    defaultValue: "",
    parse(text) {
      const origins = text
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => {
          let url: URL;
          try {
            url = new URL(item);
          } catch {
            throw new Error(`expected origins like https://app.example.com, got "${item}"`);
          }
          if (url.origin === "null" || url.pathname !== "/" || url.search || url.hash) {
            throw new Error(`expected an origin (scheme, host and port only), got "${item}"`);
          }
          return url.origin;
        });
      return origins.join(",");
    },
  };
}

export const hostSettingDefinitions = {
  "overwrite.cli.url": baseUrlSetting(
    "Canonical base URL (e.g. https://cloud.example.com); every absolute URL the server builds uses it.",
  ),
  token_auth_enforced: booleanSetting(
    "When true, HTTP Basic with the account password is refused; app passwords and tokens still work.",
    false,
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
  "oauth2.cleanup_interval": integerSetting(
    "Seconds between runs of the oauth2:cleanup job, which deletes codes and tokens a week after expiry.",
    86_400,
    60,
    2_592_000,
  ),
  "cors.allowed-domains": originListSetting(
    "Comma-separated origins whose browsers may call the OAuth token and userinfo endpoints (CORS).",
  ),
  activity_expire_days: integerSetting(
    "Days an activity stays in the stream; a daily job (and ./occ activity:expire) deletes older ones.",
    365,
    1,
    36_500,
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

export function parseHostSetting(name: string, text: string): { name: HostSettingName; value: boolean | number | string } {
  if (!isHostSettingName(name)) {
    const known = Object.keys(hostSettingDefinitions).join(", ");
    throw new Error(`unknown setting "${name}"; known settings: ${known}`);
  }
  try {
    return { name, value: hostSettingDefinitions[name].parse(text) };
  } catch (error) {
    throw new Error(`invalid value for ${name}: ${(error as Error).message}`);
  }
}

/**
 * Reads `config.json` from the data directory. The file is re-read when its modification time
 * changes (checked at most once a second), so `./occ config:system:set` takes effect on a
 * running server without a restart.
 */
export class HostSettings {
  readonly file: string;
  private values: Record<string, unknown> = {};
  private loadedMtimeMs = -1;
  private checkedAt = 0;
  /** Why the last read of config.json failed; undefined when it was read fine (or is absent). */
  private lastProblem: string | undefined;

  constructor(
    dataDir: string,
    private readonly overrides: Partial<Record<HostSettingName, unknown>> = {},
  ) {
    this.file = path.join(dataDir, "config.json");
  }

  get<N extends HostSettingName>(name: N): HostSettingValue<N> {
    if (Object.hasOwn(this.overrides, name)) return this.overrides[name] as HostSettingValue<N>;
    this.refresh();
    const value = this.values[name];
    return (value === undefined ? hostSettingDefinitions[name].defaultValue : value) as HostSettingValue<N>;
  }

  /**
   * Undefined when config.json was last read fine (or does not exist), else what is wrong with it
   * (e.g. its JSON syntax error): readiness (/health/ready) reports it. Re-reads a changed file
   * (at most once a second, like get()).
   */
  problem(): string | undefined {
    try {
      this.refresh();
    } catch {
      // Recorded in lastProblem by refresh().
    }
    return this.lastProblem;
  }

  /** The stored value, or undefined when the setting was never set (`config:system:get` exits 1 then). */
  getStored(name: HostSettingName): unknown {
    this.refresh(true);
    return this.values[name];
  }

  /** Validated write through a temporary file and rename: a crash never leaves half a file. */
  set(name: HostSettingName, value: boolean | number | string): void {
    this.refresh(true);
    this.writeAll({ ...this.values, [name]: value });
  }

  delete(name: HostSettingName): boolean {
    this.refresh(true);
    if (!Object.hasOwn(this.values, name)) return false;
    const next = { ...this.values };
    delete next[name];
    this.writeAll(next);
    return true;
  }

  private writeAll(values: Record<string, unknown>): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.file);
    this.values = values;
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
    } catch {
      this.values = {};
      this.loadedMtimeMs = -1;
      this.lastProblem = undefined;
      return;
    }
    if (mtimeMs === this.loadedMtimeMs) return;
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(this.file, "utf8"));
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new Error(`${this.file} must hold a JSON object`);
      }
      this.values = parsed as Record<string, unknown>;
      this.loadedMtimeMs = mtimeMs;
      this.lastProblem = undefined;
    } catch (error) {
      this.lastProblem = `${this.file}: ${error instanceof Error ? error.message : String(error)}`;
      throw error;
    }
  }
}
