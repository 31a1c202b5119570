import { readFileSync } from "node:fs";

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

/**
 * The git commit this build was compiled from, as `npm run build` recorded it in
 * `dist/build-info.json` (scripts/build-info.sh), next to the compiled product.js; undefined when
 * none was recorded (no git at build time, or running from src/ through tsx). Never asked of git at
 * run time: a release tarball has no repository, and git refuses one owned by another user.
 */
export function keystreamCommit(): string | undefined {
  try {
    const info: unknown = JSON.parse(readFileSync(new URL("./build-info.json", import.meta.url), "utf8"));
    const commit = (info as { commit?: unknown }).commit;
    return typeof commit === "string" && commit !== "unknown" && commit !== "" ? commit : undefined;
  } catch {
    return undefined;
  }
}

/** Version and commit, the one source for every place that names the build (occ, status.php, metrics). */
export function buildInfo(): { version: string; commit: string } {
  return { version: keystreamVersion(), commit: keystreamCommit() ?? "unknown" };
}

/** The release as people read it: package.json's version, and the commit (12 digits) when known. */
export function keystreamRelease(): string {
  const commit = keystreamCommit();
  // 12 hex digits, as `git log --abbrev=12` shows them; a "-dirty" mark (scripts/build-info.sh) stays.
  return commit ? `${keystreamVersion()} (commit ${commit.replace(/^([0-9a-f]{12})[0-9a-f]*/, "$1")})` : keystreamVersion();
}
