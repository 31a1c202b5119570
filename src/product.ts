import { readFileSync } from "node:fs";

/**
 * How Keystream presents itself to clients. The version is ownCloud's 10.x line on purpose:
 * ownCloud clients refuse servers below 7 and warn below 10 (research/owncloud-desktop-client.md §1).
 */
export const PRODUCT = {
  name: "Keystream",
  version: "10.11.0.0",
  versionString: "10.11.0",
  edition: "Community",
} as const;

/**
 * Keystream's own release (package.json's `version`), which `./occ --version` and `./occ status`
 * report; status.php keeps answering with PRODUCT's ownCloud version above. Read at run time from
 * the application root (one level above src/ and dist/ alike), so it cannot drift from the package.
 */
export function keystreamVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const version = (manifest as { version?: unknown }).version;
  return typeof version === "string" ? version : "unknown";
}
