/**
 * owncloud/oauth2 lib/Controller/OAuthApiController.php (refresh_token branch;
 * docs/upstream/owncloud-oauth2.md A.1.2): ownCloud desktop 2.4.2 retries a failed refresh forever
 * unless the error comes with HTTP 200. ownCloud recognises it with `/\bmirall\b.+2\.4\.2/i`: the
 * word "mirall" and, later on the same line, "2.4.2" (its User-Agent is
 * `Mozilla/5.0 (<os>) mirall/2.4.2 (build <n>) …`, about 150 characters with the brand suffix).
 *
 * That regex backtracks: it retries `.+` from every "mirall" word, so a User-Agent of n words
 * "mirall" costs O(n²) (30 ms of event-loop time for 16 KB, on an unauthenticated, unthrottled
 * error path). The same test is done here in two linear scans, and only over the first
 * LEGACY_USER_AGENT_INSPECTED characters, longer than any real client's.
 */
export const LEGACY_USER_AGENT_INSPECTED = 512;

const MIRALL_WORD = /\bmirall\b/i;
const VERSION = "2.4.2";
/** `.` in the original regex stops at these, so "2.4.2" must be on the same line as "mirall". */
const LINE_TERMINATORS = /[\n\r\u2028\u2029]/;

export function isLegacyDesktopRefreshLoop(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return false;
  for (const line of userAgent.slice(0, LEGACY_USER_AGENT_INSPECTED).split(LINE_TERMINATORS)) {
    // The earliest "mirall" leaves the most room after it, so it is the only one worth trying;
    // `.+` needs at least one character between the word and the version.
    const word = MIRALL_WORD.exec(line);
    if (word && line.indexOf(VERSION, word.index + word[0].length + 1) !== -1) return true;
  }
  return false;
}
