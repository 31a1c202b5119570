import { cleanupCutoff } from "./domain/lifetimes.js";
import { REGISTERED_CLIENT_UNUSED_DAYS } from "./domain/registration.js";
import type { CleanupCounts, CleanupProgress, ClientStore, DeviceAuthorizationStore, GrantStore } from "./ports.js";

interface Logger {
  info(obj: object, msg: string): void;
}

/**
 * Deletes device authorizations (RFC 8628; until then an expired one is answered `expired_token`),
 * codes, access tokens and refresh tokens one week after their expiry (rotated refresh tokens one
 * week after rotation), then grants left without any. Until then expired items stay stored but are
 * rejected. Serves `./occ oauth2:cleanup` and the daily `oauth2:cleanup` job.
 */
export async function cleanupExpired(
  stores: { grants: GrantStore; devices: DeviceAuthorizationStore },
  now: number,
  log: Logger,
  onProgress?: CleanupProgress,
): Promise<CleanupCounts> {
  const cutoff = cleanupCutoff(now);
  const deviceCodes = await stores.devices.purgeExpired(cutoff);
  onProgress?.("deviceCodes", deviceCodes);
  const counts = { deviceCodes, ...(await stores.grants.cleanup(cutoff, onProgress)) };
  log.info({ event: "oauth2_cleanup", ...counts }, "Cleaning up expired Authorization Codes, Access Tokens and Refresh Tokens.");
  return counts;
}

/**
 * The cleanup's part for registered clients: those unused for REGISTERED_CLIENT_UNUSED_DAYS (or
 * never used since registering that long ago) are deleted with their grants, codes and tokens.
 */
export async function removeUnusedRegisteredClients(clients: ClientStore, now: number, log: Logger): Promise<number> {
  const removed = await clients.removeUnusedRegistered(now - REGISTERED_CLIENT_UNUSED_DAYS * 86_400);
  if (removed > 0) {
    log.info(
      { event: "oauth2_registered_clients_removed", clients: removed },
      `${removed} registered client(s) unused for ${REGISTERED_CLIENT_UNUSED_DAYS} days deleted.`,
    );
  }
  return removed;
}
