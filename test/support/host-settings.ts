import { checkHostSetting, type ParsedHostSetting } from "../../src/config/host-setting-check.js";

/** The setting parsed from text as occ and the console parse it; a refusal throws with occ's message, for assert.throws. */
export function parseHostSetting(name: string, text: string): ParsedHostSetting {
  const checked = checkHostSetting(name, text);
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
}
