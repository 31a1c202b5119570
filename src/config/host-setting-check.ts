import { type Result, refused, succeeded } from "../refusal.js";
import { type HostSettingName, hostSettingDefinitions, isHostSettingName } from "./host-settings.js";
import { settingFromText } from "./setting.js";

/** A host setting's name and its value, parsed from text (occ's `--value`, the console's form). */
export interface ParsedHostSetting {
  name: HostSettingName;
  value: boolean | number | string;
}

export type HostSettingRefusalCode = "unknown_setting" | "invalid_value";

/**
 * A host setting parsed from text (occ's `--value`, the console's form), or refused: the refusal's
 * phrase names the setting that was not changed, its message is the English reason occ prints and
 * the console shows beside it.
 */
export function checkHostSetting(name: string, text: string): Result<ParsedHostSetting, HostSettingRefusalCode> {
  const notChanged = { key: "console:settings.refused", values: { name } } as const;
  if (!isHostSettingName(name)) return refused("unknown_setting", notChanged, { message: unknownSettingMessage(name) });
  const checked = settingFromText(hostSettingDefinitions[name], text);
  if (!checked.ok) {
    return refused("invalid_value", notChanged, { message: invalidValueMessage(name, checked.expected, text) });
  }
  return succeeded({ name, value: checked.value as boolean | number | string });
}

/** occ's refusal of a name that is no host setting. */
function unknownSettingMessage(name: string): string {
  return `unknown setting "${name}"; known settings: ${Object.keys(hostSettingDefinitions).join(", ")}`;
}

/** occ's refusal of a value its setting does not take. */
function invalidValueMessage(name: HostSettingName, expected: string, text: string): string {
  return `invalid value for ${name}: expected ${expected}, got "${text}"`;
}
