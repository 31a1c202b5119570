import fs from "node:fs";
import path from "node:path";

/**
 * The data directory holds the SQLite database (password hashes, e-mail addresses, every user's
 * activity), config.json and the client-secret key: readable by the service account alone
 * (SQLite would otherwise create the database 0644 under the usual umask). Directories 0700, files 0600.
 */
const OWNER_ONLY = 0o700;
const GROUP_AND_OTHER = 0o077;

export interface PermissionsReport {
  /** Paths whose group/other permission bits were removed. */
  fixed: string[];
  /** Paths that could not be changed (another owner), with the reason. */
  failed: Array<{ path: string; error: string }>;
}

/**
 * Creates `dataDir` (0700) or tightens it and everything under it: the group and other bits are
 * removed from every directory and file (symbolic links are left alone, not followed). When
 * `sqliteFile` is given and does not exist yet it is created empty with mode 0600 first: SQLite
 * creates a new database with 0644 (less the umask), and gives the `-wal`/`-shm`/journal files the
 * mode of the database file, so they are owner-only from the start too.
 */
export function secureDataDir(
  dataDir: string,
  sqliteFile?: string,
  /** Told when anything was changed or could not be (an existing install): the server logs it. */
  onFixed?: (report: PermissionsReport) => void,
): PermissionsReport {
  const report: PermissionsReport = { fixed: [], failed: [] };
  fs.mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY });
  tighten(dataDir, fs.statSync(dataDir), report);
  walk(dataDir, report);
  if (sqliteFile !== undefined) {
    // "a": create if missing, never truncate; the mode applies only when it is created.
    fs.closeSync(fs.openSync(path.join(dataDir, sqliteFile), "a", 0o600));
  }
  if (report.fixed.length > 0 || report.failed.length > 0) onFixed?.(report);
  return report;
}

function walk(directory: string, report: PermissionsReport): void {
  for (const entry of fs.readdirSync(directory)) {
    const entryPath = path.join(directory, entry);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entryPath);
    } catch {
      continue; // removed meanwhile (a WAL file at another process's checkpoint)
    }
    if (stat.isSymbolicLink()) continue;
    tighten(entryPath, stat, report);
    if (stat.isDirectory()) walk(entryPath, report);
  }
}

function tighten(target: string, stat: fs.Stats, report: PermissionsReport): void {
  if ((stat.mode & GROUP_AND_OTHER) === 0) return;
  try {
    fs.chmodSync(target, stat.mode & OWNER_ONLY);
    report.fixed.push(target);
  } catch (error) {
    report.failed.push({ path: target, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Files the process creates later (SQLite's temporary files, anything a library writes) get no
 * group/other bits either. Set at the entry points (the server, ./occ), not in library code.
 */
export const PRIVATE_UMASK = 0o077;
