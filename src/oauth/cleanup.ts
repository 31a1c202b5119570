import { cleanupCutoff } from "./domain/lifetimes.js";
import type { CleanupCounts, CleanupProgress, GrantStore } from "./ports.js";

/**
 * Deletes codes, access tokens and refresh tokens one week after their expiry (rotated refresh
 * tokens one week after rotation), then grants left without any. Until then expired items stay
 * stored but are rejected. Serves `./occ oauth2:cleanup` and the daily `oauth2:cleanup` job.
 */
export async function cleanupExpired(
  grants: GrantStore,
  now: number,
  log: { info(obj: object, msg: string): void },
  onProgress?: CleanupProgress,
): Promise<CleanupCounts> {
  const counts = await grants.cleanup(cleanupCutoff(now), onProgress);
  log.info({ event: "oauth2_cleanup", ...counts }, "Cleaning up expired Authorization Codes, Access Tokens and Refresh Tokens.");
  return counts;
}
