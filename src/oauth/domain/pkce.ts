import { createHash } from "node:crypto";
import { constantTimeEqual } from "../../security/secrets.js";

/** RFC 7636 §4.2: base64url(SHA-256(ASCII(verifier))) without padding. */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export type PkceVerdict = "valid" | "invalid" | "unsupported_method";

/**
 * research A.1.2 step 6 (always executed, also without PKCE):
 * - stored method `S256`: the verifier's S256 challenge must equal the stored one;
 * - `plain`, empty or none: the verifier must be identical to the stored challenge, so a code issued
 *   without PKCE accepts only a request without verifier, and a verifier sent for it is invalid;
 * - any other stored method is not supported.
 * Comparisons are constant time.
 */
export function verifyPkce(method: string | null, challenge: string | null, verifier: string | undefined): PkceVerdict {
  if (method === "S256") {
    if (challenge === null || verifier === undefined) return "invalid";
    return constantTimeEqual(s256Challenge(verifier), challenge) ? "valid" : "invalid";
  }
  if (method === null || method === "" || method === "plain") {
    if (challenge === null || verifier === undefined) return challenge === null && verifier === undefined ? "valid" : "invalid";
    return constantTimeEqual(verifier, challenge) ? "valid" : "invalid";
  }
  return "unsupported_method";
}
