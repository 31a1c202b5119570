/**
 * research A.1.2 (refresh_token branch): ownCloud desktop 2.4.2 retries a failed refresh forever
 * unless the error comes with HTTP 200. Its User-Agent contains "mirall" and the version.
 */
const LEGACY_DESKTOP_USER_AGENT = /\bmirall\b.+2\.4\.2/i;

export function isLegacyDesktopRefreshLoop(userAgent: string | undefined): boolean {
  return userAgent !== undefined && LEGACY_DESKTOP_USER_AGENT.test(userAgent);
}
