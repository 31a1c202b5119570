import fs from "node:fs";
import path from "node:path";
import type { Desktop } from "./desktop.js";

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

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The client's log lines worth quoting (research §5), HTTP lines only for the token endpoint. */
export function interestingLines(log: string): string[] {
  const patterns = [
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
  ];
  return log
    .split("\n")
    .filter((line) => patterns.some((p) => p.test(line)))
    .map((line) => line.replace(/(access_token|refresh_token)(\\*":\\*")[^"\\]+/g, "$1$2[redacted]"))
    .map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line));
}

/** An HTTPS GET that trusts the test CA only (the harness's own check of the nginx set-up). */
export async function httpsGet(url: string, caFile: string): Promise<{ status: number; body: string }> {
  const https = await import("node:https");
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca: fs.readFileSync(caFile) }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.setTimeout(10_000, () => request.destroy(new Error("timeout")));
  });
}
