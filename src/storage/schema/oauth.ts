import type { Generated } from "kysely";
import type { EpochSeconds } from "./accounts.js";

export interface OAuthClientsTable {
  id: Generated<number>;
  /** Display name on the consent page; unique, the lookup key of `oauth2:modify-client`. */
  name: string;
  /** The public client identifier (`client_id`); unique. */
  client_id: string;
  /** AES-256-GCM envelope of the secret (security/secret-box.ts), so list-clients can show it. */
  secret_encrypted: string;
  redirect_uri: string;
  allow_subdomains: number;
  trusted: number;
  created_at: EpochSeconds;
  /** 1: may introspect other clients' tokens (migration 0008); 0 for every client that existed before it. */
  resource_server: Generated<number>;
  /** Where RP-initiated logout may send the browser back to (migration 0011); null: nowhere. */
  post_logout_redirect_uri: string | null;
  /** 1: an ownCloud or Nextcloud client, its tokens have the account scope (migration 0016). */
  account_access: Generated<number>;
  /** The scopes a trusted client receives without consent (migration 0016); null: every scope. */
  trusted_scopes: string | null;
  /** When the client registered itself (RFC 7591, migration 0020); null: added by an administrator. */
  registered_at: EpochSeconds | null;
  /** A registered client's last grant or token issue (migration 0020); null: not used yet. */
  last_used_at: EpochSeconds | null;
}

/**
 * One authorization: a user granting a client access at one time (consent or trusted skip). Every
 * code and token row points at its grant, so revoking a grant is one DELETE (rows cascade) and a
 * replayed code or refresh token can be traced to the grant it descends from.
 */
export interface OAuthGrantsTable {
  id: Generated<number>;
  client_id: number;
  uid: string;
  authorized_at: EpochSeconds;
  /** 1 when the code was redeemed by a public client (PKCE, no secret): refresh with client_id alone. */
  public_client: Generated<number>;
  /** What the authorization granted (src/oauth/domain/scope.ts); every grant has one since migration 0016. */
  scope: string | null;
  /** OIDC Core §2 `auth_time`: when the user logged in for this authorization; null before migration 0011. */
  auth_time: EpochSeconds | null;
  /** OIDC Core §3.1.2.1 `nonce` of the authorization request, echoed in the code exchange's ID token. */
  nonce: string | null;
}

export interface OAuthCodesTable {
  /** SHA-256 hex of the code. */
  code_hash: string;
  grant_id: number;
  code_challenge: string | null;
  code_challenge_method: string | null;
  /** The authorization request's redirect URI (RFC 6749 §4.1.3); null for codes issued before migration 0007. */
  redirect_uri: string | null;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  /** Set once, by the single redemption that wins; a consumed code "does not exist" for the client. */
  consumed_at: EpochSeconds | null;
}

export interface OAuthAccessTokensTable {
  id: Generated<number>;
  /** SHA-256 hex of the token. */
  token_hash: string;
  grant_id: number;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
}

export interface OAuthRefreshTokensTable {
  id: Generated<number>;
  /** SHA-256 hex of the token. */
  token_hash: string;
  grant_id: number;
  /** The access token issued with it (deleted at rotation); null once that one was cleaned up. */
  access_token_id: number | null;
  created_at: EpochSeconds;
  expires_at: EpochSeconds;
  /** Set once, by the single rotation that wins; a rotated token "does not exist" for the client. */
  rotated_at: EpochSeconds | null;
}

/**
 * The refresh-reuse grace window: the pair a rotation issued, sealed (AES-256-GCM,
 * security/secret-box.ts), so a retry with the rotated token within `expires_at` gets the same pair.
 */
export interface OAuthRefreshGraceTable {
  /** The rotated refresh token. */
  refresh_token_id: number;
  /** The refresh token issued by that rotation (its rotation ends the grace). */
  successor_id: number;
  sealed_pair: string;
  expires_at: EpochSeconds;
}

/** Default clients still to be seeded (names only; the rows are written, encrypted, on first use). */
export interface OAuthPendingSeedsTable {
  name: string;
}

/** A user's avatar (userinfo `picture`, docs/upstream/owncloud-oauth2.md A.7): one small image per user. */
export interface UserAvatarsTable {
  uid: string;
  content_type: string;
  /** The image, base64 (portable text column on both dialects). */
  data: string;
  updated_at: EpochSeconds;
}

/** An ID token signing key (OpenID Connect Core §10.1): the private JWK sealed with the client-secret key. */
export interface OidcSigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: string;
  private_jwk_sealed: string;
  created_at: EpochSeconds;
  /** When a rotation replaced it: published (verifies) for the grace period after, never signs again. */
  retired_at: EpochSeconds | null;
}

export interface OAuthTables {
  oauth2_clients: OAuthClientsTable;
  oauth2_grants: OAuthGrantsTable;
  oauth2_codes: OAuthCodesTable;
  oauth2_access_tokens: OAuthAccessTokensTable;
  oauth2_refresh_tokens: OAuthRefreshTokensTable;
  oauth2_refresh_grace: OAuthRefreshGraceTable;
  oauth2_pending_seeds: OAuthPendingSeedsTable;
  user_avatars: UserAvatarsTable;
  oidc_signing_keys: OidcSigningKeysTable;
}
