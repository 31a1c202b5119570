import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * How Keystream presents itself to clients in status.php and the capabilities. One answer serves
 * both desktop clients (docs/decisions.md "One status.php for both desktop clients"):
 * - ownCloud 2.11 refuses servers below 7, warns below 10 or when the product name is "Nextcloud",
 *   and chooses its OAuth2 login from the DAV Bearer challenge, not from the version
 *   (docs/upstream/desktop-clients.md, ownCloud client §1);
 * - Nextcloud 3.7 uses Login Flow v2 from version 16 on (below: ownCloud-style OAuth or Basic)
 *   and calls servers below 16 unsupported (docs/upstream/desktop-clients.md, Nextcloud client §1.3, §1.5).
 */
export const PRODUCT = {
  name: "Keystream",
  version: "25.0.0.0",
  versionString: "25.0.0",
  edition: "Community",
} as const;

/**
 * Keystream's own release (package.json's `version`), which `./occ --version` and `./occ status`
 * report; status.php keeps answering with PRODUCT's client-facing version above. Read at run time from
 * the application root (one level above src/ and dist/ alike), so it cannot drift from the package.
 */
export function keystreamVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const version = (manifest as { version?: unknown }).version;
  return typeof version === "string" ? version : "unknown";
}

/** The application root, one level above src/ and dist/ alike (symlinks resolved by Node). */
const APPLICATION_ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The git commit the application root is checked out at, or undefined where that is not known (a
 * copy without `.git`). Read from the files git keeps (gitrepository-layout(5): `HEAD`, a loose ref,
 * `packed-refs`; a linked worktree's `.git` file and `commondir`) instead of running git, which
 * refuses a repository owned by another user (`safe.directory`), as occ running as the service's
 * user would meet in an install owned by root.
 */
export function keystreamCommit(root = APPLICATION_ROOT): string | undefined {
  try {
    let gitDir = path.join(root, ".git");
    if (statSync(gitDir).isFile()) {
      const pointer = /^gitdir: (.+)$/m.exec(readFileSync(gitDir, "utf8"))?.[1];
      if (!pointer) return undefined;
      gitDir = path.resolve(root, pointer.trim());
    }
    const head = readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    if (isObjectName(head)) return head;
    const ref = /^ref: (\S+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const common = commonDir(gitDir);
    for (const dir of new Set([gitDir, common])) {
      const loose = readOptional(path.join(dir, ref))?.trim();
      if (loose && isObjectName(loose)) return loose;
    }
    for (const line of (readOptional(path.join(common, "packed-refs")) ?? "").split("\n")) {
      const [name, packedRef] = line.trim().split(" ");
      if (packedRef === ref && name && isObjectName(name)) return name;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** SHA-1 or SHA-256 object names, as git writes them. */
function isObjectName(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}

function commonDir(gitDir: string): string {
  const pointer = readOptional(path.join(gitDir, "commondir"))?.trim();
  return pointer ? path.resolve(gitDir, pointer) : gitDir;
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The release as occ names it: package.json's version, and the commit (12 digits) when known. */
export function keystreamRelease(): string {
  const commit = keystreamCommit();
  return commit ? `${keystreamVersion()} (commit ${commit.slice(0, 12)})` : keystreamVersion();
}
