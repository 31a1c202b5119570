import { createHash } from "node:crypto";
import { type ClaimsSubject, scopedUserClaims } from "./claims.js";

/** Seconds an ID token is valid: as long as the access token issued with it. */
export const ID_TOKEN_LIFETIME_SECONDS = 3600;

/**
 * OIDC Core §3.1.3.6 `at_hash`: base64url of the left-most half of the hash of the access token's
 * ASCII octets, the hash being the one of the signing algorithm (SHA-256 for RS256).
 */
export function accessTokenHash(accessToken: string): string {
  const digest = createHash("sha256").update(accessToken, "ascii").digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

/** Everything one ID token says. */
export interface IdTokenContent {
  issuer: string;
  /** The client the token is for (its only audience). */
  clientId: string;
  subject: ClaimsSubject;
  /** The grant's scope: decides the user claims (§5.4). */
  scope: string;
  /** When the user logged in; null for a grant recorded without it. */
  authTime: number | null;
  /** Only in the code exchange's token (§12.2: a refreshed ID token carries none). */
  nonce: string | null;
  accessToken: string;
  now: number;
  /** The session's `sid` (OpenID Back-Channel Logout 1.0 §2.1); undefined when the grant knows no session. */
  sid?: string | undefined;
}

/**
 * OIDC Core §2 and §3.1.3.6 claims. `azp` is left out: the audience is always the one client, which
 * is the authorized party (§2: only needed when it differs). `auth_time` whenever known, so a client
 * that sent `max_age` finds it (§3.1.2.1 requires it then).
 */
export function idTokenClaims(content: IdTokenContent): Record<string, unknown> {
  return {
    ...scopedUserClaims(content.subject, content.scope),
    iss: content.issuer,
    aud: content.clientId,
    exp: content.now + ID_TOKEN_LIFETIME_SECONDS,
    iat: content.now,
    ...(content.authTime === null ? {} : { auth_time: content.authTime }),
    ...(content.nonce === null ? {} : { nonce: content.nonce }),
    at_hash: accessTokenHash(content.accessToken),
    ...(content.sid === undefined ? {} : { sid: content.sid }),
  };
}
