/** Lifetimes and retention (docs/spec/oauth2-service.md, Limits). All times are epoch seconds from the injected clock. */

/** An authorization code older than 600 seconds is expired. */
export const CODE_LIFETIME_SECONDS = 600;
/** An access token older than 3600 seconds is expired and rejected. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** Expired items are kept one week after their expiry, then cleaned up. */
export const RETENTION_AFTER_EXPIRY_SECONDS = 7 * 86_400;

/** Expired when now ≥ expires, as in ownCloud (docs/upstream/owncloud-oauth2.md A.4). */
export function isExpired(expiresAt: number, now: number): boolean {
  return now >= expiresAt;
}

/** Items whose expiry (or consumption) is at or before this instant may be deleted. */
export function cleanupCutoff(now: number): number {
  return now - RETENTION_AFTER_EXPIRY_SECONDS;
}
