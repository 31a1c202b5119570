import { type Result, refused, succeeded } from "../refusal.js";
import {
  hostSettingDefinitions,
  invalidValueMessage,
  isHostSettingName,
  type ParsedHostSetting,
  unknownSettingMessage,
} from "./host-settings.js";
import { settingFromText } from "./setting.js";

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
