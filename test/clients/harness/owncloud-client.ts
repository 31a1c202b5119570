import fs from "node:fs";
import path from "node:path";
import type { Desktop } from "./desktop.js";
import { selectedLines } from "./scenario.js";

/** The ownCloud desktop client's settings file in the test's home (research/owncloud-desktop-client.md §6). */
function configFile(desktop: Desktop): string {
  return path.join(desktop.home, ".config/ownCloud/owncloud.cfg");
}

/**
 * Settings written before the first start, as a user could: the client polls the sync folder's
 * ETag every 5 s instead of 30 s (its minimum; ConfigFile::remotePollInterval), so a file put on
 * the server shows up within the test's patience.
 */
export function seedClientSettings(desktop: Desktop): void {
  fs.mkdirSync(path.dirname(configFile(desktop)), { recursive: true });
  fs.writeFileSync(configFile(desktop), "[General]\nremotePollInterval=5000\n");
}

/** The local folder of the account's first sync folder (`0\Folders\1\localPath`), which must exist. */
export function syncFolderOf(config: string): string {
  const folder = /^0\\Folders\w*\\\d+\\localPath=(.+)$/m.exec(config)?.[1]?.trim();
  if (!folder || !fs.existsSync(folder)) throw new Error(`no local sync folder in owncloud.cfg:\n${config}`);
  return folder;
}

export function readConfig(desktop: Desktop): string {
  try {
    return fs.readFileSync(configFile(desktop), "utf8");
  } catch {
    return "";
  }
}

/** The client's log lines worth quoting (research §5), HTTP lines only for the token endpoint. */
export function interestingLines(log: string): string[] {
  return selectedLines(log, [
    /Auth type for/,
    /Connect to url/,
    /Remote folder found/,
    /connection status change/,
    /state change: .*Asking Credentials/,
    /Start fetching activities/,
    /cloud\/activity.*FINISHED/,
    /SyncEngine finished/,
    /Completed propagation of/,
    /Response: POST \d+ \S+\/api\/v1\/token/,
    /(del|removed) "ownCloud_credentials/,
  ]);
}
