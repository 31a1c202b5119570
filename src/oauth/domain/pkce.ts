import { createHash } from "node:crypto";
import { constantTimeEqual } from "../../crypto/secrets.js";

/**
 * PKCE (RFC 7636): the one place that decides what a challenge, a method and a verifier may be.
 * The authorization endpoint checks the challenge with `checkChallenge`; the token endpoint checks
 * the verifier against the stored challenge with `verifyPkce`.
 */

/** RFC 7636 §4.3: the methods offered (also listed in the RFC 8414 metadata). */
export const CHALLENGE_METHODS = ["S256", "plain"] as const;
export type ChallengeMethod = (typeof CHALLENGE_METHODS)[number];

/** RFC 7636 §4.1 (verifier) and §4.2 (challenge): 43–128 characters of the unreserved set. */
const UNRESERVED_43_TO_128 = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RFC 7636 §4.2: an S256 challenge is base64url(SHA-256) without padding, always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** RFC 7636 §4.1: `code_verifier = 43*128unreserved`. */
export function isWellFormedVerifier(verifier: string): boolean {
  return UNRESERVED_43_TO_128.test(verifier);
}

/**
 * RFC 7636 §4.2: base64url(SHA-256(ASCII(verifier))) without padding. Only well-formed (ASCII)
 * verifiers reach it; the bytes are taken as UTF-8 anyway, since Node's "ascii" encoding keeps only
 * the low byte of each code unit and so made different strings hash alike.
 */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "utf8").digest("base64url");
}

/**
 * "An empty challenge is no challenge": a stored `""` (which a row written without `checkChallenge`'s
 * checks may hold) or null means the code was issued without PKCE, so it gives no proof of possession.
 */
export function hasChallenge(challenge: string | null | undefined): challenge is string {
  return challenge !== null && challenge !== undefined && challenge !== "";
}

export type ChallengeCheck =
  | { ok: true; pkce: { challenge: string; method: ChallengeMethod } | null }
  | { ok: false; detail: string };

/**
 * RFC 7636 §4.3/§4.4.1, at the authorization endpoint (response type `code`):
 * - no challenge (absent or empty) and no method: no PKCE, the client authenticates as usual;
 * - a method without a challenge: refused (the client meant PKCE; a code without it would silently
 *   lose the proof it asked for);
 * - the method, absent or empty, is `plain` (§4.3); anything but `S256` or `plain` is refused;
 * - the challenge is 43–128 unreserved characters, and for `S256` exactly the 43 base64url
 *   characters of a SHA-256 digest (any other value could never match a verifier).
 * The caller answers a refusal with `invalid_request` at the (proven) redirect URI (§4.4.1).
 */
export function checkChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck {
  const methodGiven = method !== undefined && method !== "";
  if (!hasChallenge(challenge)) {
    return methodGiven ? { ok: false, detail: "code_challenge_method without code_challenge" } : { ok: true, pkce: null };
  }
  const effective = methodGiven ? method : "plain";
  if (effective !== "S256" && effective !== "plain") {
    return { ok: false, detail: `unsupported code_challenge_method ${effective}` };
  }
  const form = effective === "S256" ? S256_CHALLENGE : UNRESERVED_43_TO_128;
  if (!form.test(challenge)) return { ok: false, detail: `malformed ${effective} code_challenge` };
  return { ok: true, pkce: { challenge, method: effective } };
}

export type PkceVerdict = "valid" | "invalid" | "unsupported_method";

/**
 * ownCloud's check (docs/upstream/owncloud-oauth2.md A.1.2 step 6: always executed, also without
 * PKCE), with RFC 7636 §4.6:
 * - a code without a challenge accepts only a request without verifier (a verifier sent for it is
 *   invalid, as in ownCloud);
 * - stored method `S256`: the verifier's S256 challenge must equal the stored one; `plain` or empty:
 *   the verifier must be identical to the stored challenge;
 * - any other stored method is not supported (a row written without the authorization endpoint's
 *   method check may hold one);
 * - a verifier that is not 43–128 unreserved characters is invalid (§4.1) before any comparison.
 * Comparisons are constant time.
 */
export function verifyPkce(method: string | null, challenge: string | null, verifier: string | undefined): PkceVerdict {
  if (!hasChallenge(challenge)) return verifier === undefined ? "valid" : "invalid";
  if (method !== null && method !== "" && method !== "S256" && method !== "plain") return "unsupported_method";
  if (verifier === undefined || !isWellFormedVerifier(verifier)) return "invalid";
  const expected = method === "S256" ? s256Challenge(verifier) : verifier;
  return constantTimeEqual(expected, challenge) ? "valid" : "invalid";
}
