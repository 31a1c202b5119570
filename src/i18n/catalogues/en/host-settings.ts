import { type HostSettingName, hostSettingDefinitions } from "../../../config/host-settings.js";

/**
 * What each host setting means, on the console's settings area: in English the declarations' own
 * descriptions (config/host-settings.ts, which `./occ config:list --help` and docs read), so the
 * text is written once; the other languages translate them.
 */
export const hostSettings = Object.fromEntries(
  Object.entries(hostSettingDefinitions).map(([name, setting]) => [`description.${name}`, setting.description]),
) as { readonly [N in HostSettingName as `description.${N}`]: string };
