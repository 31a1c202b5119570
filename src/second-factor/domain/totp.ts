import { Secret, TOTP } from "otpauth";

/**
 * TOTP as RFC 6238 §4 defines it with the parameters every authenticator app assumes (Google
 * Authenticator's key URI format): HMAC-SHA-1, 6 digits, a 30-second time step (X), T0 = 0. A code
 * is accepted one step either side of now (§5.2: "at most one time step" of network delay and
 * clock drift). The arithmetic is the `otpauth` library's.
 */
export const TOTP_PARAMETERS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** Steps accepted either side of the current one (RFC 6238 §5.2). */
export const TOTP_WINDOW = 1;
/** 160 bits: the key length RFC 4226 §4 R6 recommends (and the HMAC-SHA-1 block's natural size). */
const SECRET_BYTES = 20;

/** A new random shared secret, as the Base32 text (RFC 4648 §6) the key URI and the page show. */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The RFC 6238 time step (T) that `nowSeconds` falls in. */
export function totpStepAt(nowSeconds: number): number {
  return TOTP.counter({ period: TOTP_PARAMETERS.period, timestamp: nowSeconds * 1000 });
}

/**
 * The time step whose code `code` is, within TOTP_WINDOW of `nowSeconds`, or undefined when it is
 * none of them. Spaces are ignored (apps show "123 456"); anything but six digits is no code.
 */
export function matchTotpStep(base32Secret: string, code: string, nowSeconds: number): number | undefined {
  const token = code.replace(/\s+/g, "");
  if (!/^[0-9]{6}$/.test(token)) return undefined;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(base32Secret),
    ...TOTP_PARAMETERS,
    timestamp: nowSeconds * 1000,
    window: TOTP_WINDOW,
  });
  return delta === null ? undefined : totpStepAt(nowSeconds) + delta;
}

/** The issuer an authenticator app shows beside the account (Key-Uri-Format `issuer`). */
export const TOTP_ISSUER = "Keystream";

/**
 * The `otpauth://totp/…` key URI an authenticator app reads from the QR code (Google
 * Authenticator's Key-Uri-Format: issuer in the label and as a parameter).
 */
export function totpKeyUri(base32Secret: string, issuer: string, accountName: string): string {
  return new TOTP({
    issuer,
    label: accountName,
    secret: Secret.fromBase32(base32Secret),
    ...TOTP_PARAMETERS,
  }).toString();
}
