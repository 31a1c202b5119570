import fs from "node:fs";
import path from "node:path";
import type { Desktop } from "./desktop.js";
import { selectedLines } from "./scenario.js";

/**
 * The Nextcloud client's own settings (research/nextcloud-desktop-client.md §6.3), written before
 * the first start: poll the login flow every 5 s instead of 30 s, and no config backup dialog.
 */
export function seedClientSettings(desktop: Desktop): void {
  const configDir = path.join(desktop.home, ".config/Nextcloud");
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(
    path.join(configDir, "nextcloud.cfg"),
    "[General]\nclientVersion=3.7.3git\nshowMainDialogAsNormalWindow=true\n\n[Nextcloud]\nremotePollInterval=5000\n",
  );
}

/** The client's log lines worth quoting (research §6 "Log lines to assert"). */
export function interestingLines(log: string): string[] {
  return selectedLines(log, [
    /Auth type for/,
    /Success getting the appPassword/,
    /Connect to url/,
    /AccountState state change/,
    /Server capabilities/,
    /Start fetching activities/,
    /api\/v2\/activity.*FINISHED WITH STATUS/,
    /Response: GET 200 \S+activity\?previews=true&since=0/,
    /Response: \S+ 401 /,
    /Notifications failed|does not have notifications enabled/,
    /Open connection to websocket|Authenticated successful on websocket|Push notifications are ready/,
    /Received push notification: "notify_/,
    /Disconnected from websocket/,
    /Completed propagation of/,
    /SyncEngine finished/,
  ]);
}
