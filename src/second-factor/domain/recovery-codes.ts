import { randomInt } from "node:crypto";
import { sha256Hex } from "../../crypto/secrets.js";

/** How many recovery codes a set has (Nextcloud's twofactor_backupcodes makes 10). */
export const RECOVERY_CODE_COUNT = 10;
/**
 * Characters of a code: letters and digits without the ones read alike (0/O, 1/I/L), so a code
 * copied from paper is typed right. 12 characters of 31 is about 59 bits: past guessing under the
 * challenge's throttle.
 */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const CODE_LENGTH = 12;

/** A new set of codes as the user is shown them once, in groups of four (`ABCD-EFGH-JKMN`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return chars.replace(/(.{4})(?=.)/g, "$1-");
  });
}

/** A typed code as it is compared: separators and spaces dropped, upper case. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.replace(/[\s-]+/g, "").toUpperCase();
}

/** What is stored of a code: the SHA-256 of its normalized form (docs/architecture.md "Secrets at rest"). */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(`recovery-code:${normalizeRecoveryCode(code)}`);
}
