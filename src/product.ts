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
