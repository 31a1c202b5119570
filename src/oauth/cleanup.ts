import { cleanupCutoff } from "./domain/lifetimes.js";
import type { CleanupCounts, CleanupProgress, DeviceAuthorizationStore, GrantStore } from "./ports.js";

/**
 * Deletes device authorizations (RFC 8628; until then an expired one is answered `expired_token`),
 * codes, access tokens and refresh tokens one week after their expiry (rotated refresh tokens one
 * week after rotation), then grants left without any. Until then expired items stay stored but are
 * rejected. Serves `./occ oauth2:cleanup` and the daily `oauth2:cleanup` job.
 */
export async function cleanupExpired(
  stores: { grants: GrantStore; devices: DeviceAuthorizationStore },
  now: number,
  log: { info(obj: object, msg: string): void },
  onProgress?: CleanupProgress,
): Promise<CleanupCounts> {
  const cutoff = cleanupCutoff(now);
  const deviceCodes = await stores.devices.purgeExpired(cutoff);
  onProgress?.("deviceCodes", deviceCodes);
  const counts = { deviceCodes, ...(await stores.grants.cleanup(cutoff, onProgress)) };
  log.info({ event: "oauth2_cleanup", ...counts }, "Cleaning up expired Authorization Codes, Access Tokens and Refresh Tokens.");
  return counts;
}
