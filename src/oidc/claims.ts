import { USER_CLAIM_SCOPES, type UserClaimName } from "../oauth/domain/requested-claims.js";
import { scopeValues } from "../oauth/domain/scope.js";

/**
 * Scopes and the user claims they grant (OpenID Connect Core 1.0 §5.4), one rule for the ID token
 * and UserInfo alike, so both always agree on `sub` and on what a scope discloses.
 */

/** The ID token's own claims (§2, §3.1.3.6), then the user claims (src/oauth/domain/requested-claims.ts). */
export const CLAIMS_SUPPORTED = [
  "iss",
  "aud",
  "exp",
  "iat",
  "auth_time",
  "nonce",
  "at_hash",
  "sid",
  ...(Object.keys(USER_CLAIM_SCOPES) as UserClaimName[]),
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
  /** The ids of the user's groups (src/groups); read only for a scope with `groups`, else undefined. */
  groups?: string[] | undefined;
}

/**
 * OIDC Core §5.4: `profile` → `name`, `preferred_username`, `picture` (when there is one);
 * `email` → `email`, `email_verified` (when there is an address); `groups` → `groups`, the ids
 * of the user's groups, an array (empty when in none), as Keycloak, Authelia and Pocket ID name it. `email_verified` is true only
 * for an address an administrator marked verified: Keystream itself never proves that a user
 * controls an address (docs/decisions.md).
 */
export function scopedUserClaims(subject: ClaimsSubject, scope: string | null | undefined): Record<string, unknown> {
  const scopes = scopeValues(scope);
  const values: Record<UserClaimName, unknown> = {
    sub: subject.uid,
    name: subject.displayName,
    preferred_username: subject.uid,
    picture: subject.pictureUrl,
    email: subject.email ?? undefined,
    email_verified: subject.email === null ? undefined : subject.emailVerified,
    groups: subject.groups,
  };
  const claims: Record<string, unknown> = {};
  for (const [name, disclosedBy] of Object.entries(USER_CLAIM_SCOPES) as Array<[UserClaimName, string | null]>) {
    if ((disclosedBy === null || scopes.has(disclosedBy)) && values[name] !== undefined) claims[name] = values[name];
  }
  return claims;
}
