import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CONFIG_VARIABLE, processSettingDefinitions } from "../config/environment.js";

/**
 * occ runs as the owner of the data directory, or not at all. What it writes there (config.json,
 * the client-secret key file, the SQLite database and its journal) is created owner-only (0600),
 * so a file written by another user, root above all, is unreadable to the server, which then
 * stops being ready and fails its next start. ownCloud's console refuses in the same situation,
 * comparing the process user with the owner of config/config.php and exiting 1 with the command
 * to run instead (owncloud/core `console.php`).
 */

/** The variable the `occ` wrapper sets to the path it was started as (`./occ`, `/usr/local/bin/occ`). */
export const OCC_COMMAND_VARIABLE = "KEYSTREAM_OCC_COMMAND";

export interface OwnerCheck {
  /** The effective uid occ runs as, and its name when the system has one. */
  processUid: number;
  processUser: string | undefined;
  /** The data directory, or when it does not exist yet the nearest existing directory above it. */
  checkedPath: string;
  dataDir: string;
  ownerUid: number;
  ownerUser: string | undefined;
  /** The command as started (the wrapper's path) and its arguments, to repeat them in the answer. */
  occ: string;
  argv: string[];
  /** Variables set for this occ that choose the instance or feed a command: `sudo` drops them unless told. */
  preserve: string[];
}

/**
 * Undefined when occ may go on: it runs as the owner of the data directory (root only when root
 * owns it). Otherwise the refusal, one line naming both users and the command to run instead,
 * with every original argument, quoted for the shell: `sudo -u OWNER …` (its environment reset,
 * so the instance's variables are named in `--preserve-env`) or `runuser -u OWNER -- …` (which
 * keeps the environment; Debian has it where sudo is not installed).
 */
export function ownerRefusal(check: OwnerCheck): string | undefined {
  if (check.processUid === check.ownerUid) return undefined;
  const command = [check.occ, ...check.argv].map(shellQuote).join(" ");
  // sudo takes `#uid` for a user without a name; runuser needs a name.
  const sudoUser = shellQuote(check.ownerUser ?? `#${check.ownerUid}`);
  const preserve = check.preserve.length > 0 ? ` --preserve-env=${check.preserve.join(",")}` : "";
  const runuser = check.ownerUser ? ` (or: runuser -u ${shellQuote(check.ownerUser)} -- ${command})` : "";
  const where =
    check.checkedPath === check.dataDir
      ? `the data directory ${check.dataDir}`
      : `the data directory ${check.dataDir} does not exist yet and ${check.checkedPath}, where it would be created,`;
  return (
    `occ runs as ${userName(check.processUser, check.processUid)}, but ${where} belongs to ` +
    `${userName(check.ownerUser, check.ownerUid)}, the user the server runs as: files occ wrote there ` +
    `would be unreadable to the server. Run it as ${check.ownerUser ?? `uid ${check.ownerUid}`}: ` +
    `sudo -u ${sudoUser}${preserve} ${command}${runuser}`
  );
}

function userName(name: string | undefined, uid: number): string {
  return name === undefined ? `uid ${uid}` : `${name} (uid ${uid})`;
}

/** A word as a POSIX shell reads it back unchanged: bare when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The owner check of this process for `dataDir`: stats the directory (or the nearest existing one
 * above it) and looks the names up. Undefined where it cannot be made (no POSIX uids, or nothing
 * above the directory can be read): the command then meets the file system as it is.
 */
export function ownerCheckOf(dataDir: string, argv: string[], env: NodeJS.ProcessEnv = process.env): OwnerCheck | undefined {
  if (typeof process.geteuid !== "function") return undefined;
  const checked = nearestExisting(dataDir);
  if (!checked) return undefined;
  const processUid = process.geteuid();
  // Names are looked up (a process each) only for a refusal, which is the only answer that shows them.
  const named = processUid !== checked.uid;
  return {
    processUid,
    processUser: named ? userNameOf(processUid) : undefined,
    checkedPath: checked.path,
    dataDir,
    ownerUid: checked.uid,
    ownerUser: named ? userNameOf(checked.uid) : undefined,
    occ: env[OCC_COMMAND_VARIABLE] || "./occ",
    argv,
    preserve: instanceVariables(env),
  };
}

function nearestExisting(dir: string): { path: string; uid: number } | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      return { path: current, uid: fs.statSync(current).uid };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || path.dirname(current) === current) return undefined;
    }
  }
}

/** The user name of `uid` as the system's user database has it (getent passwd, NSS included). */
function userNameOf(uid: number): string | undefined {
  try {
    const line = execFileSync("getent", ["passwd", String(uid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const name = line.split(":")[0]?.trim();
    return name || undefined;
  } catch {
    return undefined;
  }
}

/** The set variables that choose the instance (KEYSTREAM_CONFIG, each process setting's) and OC_PASS. */
function instanceVariables(env: NodeJS.ProcessEnv): string[] {
  const names = [CONFIG_VARIABLE, ...Object.values(processSettingDefinitions).map((setting) => setting.variable), "OC_PASS"];
  return names.filter((name) => env[name] !== undefined && env[name] !== "");
}
