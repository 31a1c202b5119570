/**
 * The rules of the OAuth 2.0 Device Authorization Grant (RFC 8628) that need no storage: lifetimes,
 * the polling interval, the user code's form, and which clients may use the grant.
 */

/** RFC 8628 §3.2 `expires_in`: a device code and its user code live ten minutes. */
export const DEVICE_CODE_LIFETIME_SECONDS = 600;
/** RFC 8628 §3.2 `interval`: the seconds a client waits between polls (the RFC's default, 5). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5 `slow_down`: the interval grows by 5 seconds for this and every later poll. */
export const SLOW_DOWN_SECONDS = 5;

/** RFC 8628 §3.3: what the user did on the verification page; `pending` until then. */
export type DeviceState = "pending" | "approved" | "denied";

/**
 * RFC 8628 §6.1: the user code is 8 characters of the 20 consonants (no vowels: no words, no
 * confusion of 0/O or 1/I), 20^8 ≈ 2^34.5 values, shown as two groups of four with a dash.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

/**
 * A user code as typed (RFC 8628 §6.1: case-insensitive, dashes and spaces ignored) in its stored
 * form, upper case without separators; undefined when it cannot be a user code at all.
 */
export function normalizedUserCode(input: string): string | undefined {
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return undefined;
  return code;
}

/** The user code as shown to a person (RFC 8628 §6.1): `WDJB-MJHT`. */
export function displayedUserCode(normalized: string): string {
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}

/**
 * RFC 8628 §3.5: a poll sooner than the interval after the previous one is `slow_down` (seconds of
 * the injected clock; the first poll is never too soon).
 */
export function pollTooSoon(lastPolledAt: number | null, interval: number, now: number): boolean {
  return lastPolledAt !== null && now - lastPolledAt < interval;
}

/**
 * Which clients may use the grant (docs/decisions.md "Device authorization grant: which clients"):
 * every client but those with account access, the ownCloud and Nextcloud apps, whose credentials
 * are published and whose tokens have the whole account: with the device grant anyone could show a
 * user their name and ask for everything (RFC 8628 §5.4, remote phishing). Those apps never use it.
 */
export function mayUseDeviceGrant(client: { accountAccess?: boolean | undefined }): boolean {
  return client.accountAccess !== true;
}
