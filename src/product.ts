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
