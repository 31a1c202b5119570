import { hash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A random string over [A-Za-z0-9] (ownCloud's code and token alphabet), drawn with
 * crypto.randomInt so every character is uniform (no modulo bias).
 */
export function randomAlphanumeric(length: number): string {
  return randomFrom(ALPHANUMERIC, length);
}

/** A random string of `length` characters of `alphabet`, each uniform (crypto.randomInt). */
export function randomFrom(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** SHA-256 hex digest: how codes, tokens, app passwords and session ids are stored at rest. */
export function sha256Hex(value: string): string {
  // One-shot `hash` (Node ≥ 20.12): half the cost of createHash().update().digest() on every request.
  return hash("sha256", value, "hex");
}

/** Constant-time string comparison (digests first, so unequal lengths leak nothing either). */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = hash("sha256", a, "buffer");
  const db = hash("sha256", b, "buffer");
  return timingSafeEqual(da, db) && a.length === b.length;
}
