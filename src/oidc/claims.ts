import { scopeValues } from "../oauth/domain/scope.js";

/**
 * Scopes and the user claims they grant (OpenID Connect Core 1.0 §5.4), one rule for the ID token
 * and UserInfo alike, so both always agree on `sub` and on what a scope discloses.
 */

export const CLAIMS_SUPPORTED = [
  "sub",
  "iss",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "at_hash",
  "sid",
  "name",
  "preferred_username",
  "picture",
  "email",
  "email_verified",
] as const;

/**
 * The user as claims describe them. `sub` is the user id, which OIDC Core §2 requires never to be
 * reassigned: a deleted user's id is not given to a new account unless the administrator asks for
 * it explicitly (accounts/users.ts `create`, docs/decisions.md).
 */
export interface ClaimsSubject {
  uid: string;
  displayName: string;
  email: string | null;
  /** True only when an administrator marked the address verified (accounts/ports.ts User). */
  emailVerified: boolean;
  /** Absolute URL of the avatar; undefined when the user has none. */
  pictureUrl: string | undefined;
}

/**
 * OIDC Core §5.4: `profile` → `name`, `preferred_username`, `picture` (when there is one);
 * `email` → `email`, `email_verified` (when there is an address). `email_verified` is true only
 * for an address an administrator marked verified: Keystream itself never proves that a user
 * controls an address (docs/decisions.md).
 */
export function scopedUserClaims(subject: ClaimsSubject, scope: string | null | undefined): Record<string, unknown> {
  const scopes = scopeValues(scope);
  const claims: Record<string, unknown> = { sub: subject.uid };
  if (scopes.has("profile")) {
    claims.name = subject.displayName;
    claims.preferred_username = subject.uid;
    if (subject.pictureUrl !== undefined) claims.picture = subject.pictureUrl;
  }
  if (scopes.has("email") && subject.email !== null) {
    claims.email = subject.email;
    claims.email_verified = subject.emailVerified;
  }
  return claims;
}
