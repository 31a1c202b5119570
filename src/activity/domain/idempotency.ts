import { sha256Hex } from "../../crypto/secrets.js";

/**
 * Idempotency keys for publishing (draft-ietf-httpapi-idempotency-key-header): a client that lost
 * the answer to a publish retries with the same key and gets the first answer again instead of a
 * second copy of its events.
 */

/** How long a key is remembered (draft §2.3 leaves the expiry to the resource; 24 h as Stripe does). */
export const IDEMPOTENCY_KEY_LIFETIME_SECONDS = 86_400;

/** Longest key accepted: long enough for any UUID or ULID scheme, short enough to index. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Who published: keys are scoped per caller (draft §2.2: "unique … per client"), so admins never collide. */
export type Publisher = { kind: "user"; uid: string } | { kind: "occ" };

/**
 * The scope a key lives in: `user:<uid>` for an administrator over HTTP, `occ` for the command
 * line. The colon never occurs in a uid (users.ts UID_PATTERN), so no user can share occ's scope.
 */
export function publisherScope(publisher: Publisher): string {
  return publisher.kind === "user" ? `user:${publisher.uid}` : "occ";
}

/**
 * The key as sent, or a message saying why it is refused. The draft makes the header an RFC 8941
 * sf-string (`"…"`, with `\"` and `\\` as the only escapes); bare values are accepted too, as
 * most clients send them (Stripe's convention), and mean the same key as their quoted form.
 * After unquoting: 1–255 printable ASCII characters (0x20–0x7E), the sf-string alphabet.
 */
export function parseIdempotencyKey(raw: string): { key: string } | { refused: string } {
  let key = raw.trim();
  if (key.startsWith('"')) {
    const match = /^"((?:[^"\\]|\\["\\])*)"$/.exec(key);
    if (!match) return { refused: "the Idempotency-Key is not a valid quoted string (RFC 8941 §3.3.3)" };
    key = match[1]!.replace(/\\(["\\])/g, "$1");
  }
  if (key.length === 0) return { refused: "the Idempotency-Key is empty" };
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return { refused: `the Idempotency-Key is longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` };
  }
  if (!/^[\x20-\x7e]+$/.test(key)) return { refused: "the Idempotency-Key must be printable ASCII" };
  return { key };
}

/**
 * The request's fingerprint (draft §2.4): SHA-256 of the parsed body serialized again, so the
 * same events compare equal whatever the whitespace, over HTTP or from occ.
 */
export function requestFingerprint(input: unknown): string {
  return sha256Hex(JSON.stringify(input) ?? "");
}
