import { randomAlphanumeric, sha256Hex } from "../crypto/secrets.js";
import { ACCESS_TOKEN_LIFETIME_SECONDS } from "./domain/lifetimes.js";
import { ACCOUNT_SCOPE } from "./domain/scope.js";
import type { NewTokens } from "./ports.js";

/** Codes and tokens are 64 characters of [A-Za-z0-9], as ownCloud's (docs/upstream/owncloud-oauth2.md A.4). */
export const TOKEN_LENGTH = 64;

export function newSecretValue(): { value: string; hash: string } {
  const value = randomAlphanumeric(TOKEN_LENGTH);
  return { value, hash: sha256Hex(value) };
}

/** A new access token, with a refresh token unless `refreshLifetime` is undefined (implicit flow). */
export function newTokens(now: number, refreshLifetime: number | undefined) {
  const access = newSecretValue();
  const refresh = refreshLifetime === undefined ? undefined : newSecretValue();
  const record: NewTokens = {
    accessTokenHash: access.hash,
    accessExpiresAt: now + ACCESS_TOKEN_LIFETIME_SECONDS,
    ...(refresh && refreshLifetime !== undefined
      ? { refresh: { tokenHash: refresh.hash, expiresAt: now + refreshLifetime } }
      : {}),
  };
  return { accessToken: access.value, refreshToken: refresh?.value, record };
}

/**
 * The token endpoint's success body (docs/upstream/owncloud-oauth2.md A.1.3), keys in ownCloud's order.
 * `message_url` is absolute, so the HTTP layer adds it.
 */
export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  user_id: string;
  /**
   * RFC 6749 §5.1: what the token may do (src/oauth/domain/scope.ts). Always sent: it differs from
   * the request whenever a value was ignored or no `scope` was sent (the account scope).
   */
  scope: string;
  /** OpenID Connect Core §3.1.3.3: only for a grant whose scope contains `openid`. */
  id_token?: string;
}

/** The response for a grant recorded with `scope` (null only on grants older than scopes: the account scope). */
export function tokenResponse(accessToken: string, refreshToken: string, uid: string, scope: string | null): TokenResponse {
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    refresh_token: refreshToken,
    user_id: uid,
    scope: scope ?? ACCOUNT_SCOPE,
  };
}
