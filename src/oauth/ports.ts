import type { User } from "../accounts/users.js";
import type { ReservationRider } from "../security/throttle.js";
import type { ClientFields } from "./domain/client-rules.js";
import type { ReadAheadFound, ReadAheadPlan } from "./read-ahead.js";

/**
 * OpenID Connect's extension point at the token endpoint (implemented in src/oidc): an ID token for
 * a grant whose scope contains `openid`, undefined for any other grant (ownCloud's answer, unchanged).
 */
export interface IdTokenMinter {
  mint(input: {
    /** Where the token request was addressed: the issuer and the base URL of absolute URLs (picture). */
    origin: RequestOrigin;
    clientId: string;
    uid: string;
    identity: GrantIdentity;
    /** The access token issued with it (`at_hash`); `nonce` only when `withNonce` (the code exchange). */
    accessToken: string;
    withNonce: boolean;
  }): Promise<string | undefined>;
}

/** The issuer identifier and base URL a request was addressed to (the HTTP layer decides them). */
export interface RequestOrigin {
  issuer: string;
  baseUrl: string;
}

/** A registered client, secret decrypted. `id` is internal; `clientId` is the public identifier. */
export interface OAuthClient extends ClientFields {
  id: number;
}

/** Clients (table oauth2_clients). Secrets are encrypted at rest; callers see plaintext. */
export interface ClientStore {
  /** In registration order. */
  list(): Promise<OAuthClient[]>;
  findById(id: number): Promise<OAuthClient | undefined>;
  findByClientId(clientId: string): Promise<OAuthClient | undefined>;
  findByName(name: string): Promise<OAuthClient | undefined>;
  /** Inserts; returns undefined when the name or client id is taken (unique constraints decide races). */
  insert(fields: ClientFields, now: number): Promise<OAuthClient | undefined>;
  /** Updates; false when the new name or client id collides with another client. */
  update(id: number, changes: Partial<ClientFields>): Promise<boolean>;
  /** Deletes the client and, by cascade, its grants, codes and tokens at once. */
  remove(id: number): Promise<boolean>;
}

/** The values to write for a new token pair (hashes only; the plain values go to the client). */
export interface NewTokens {
  accessTokenHash: string;
  accessExpiresAt: number;
  /** Absent for the implicit flow (no refresh token). */
  refresh?: { tokenHash: string; expiresAt: number };
}

/** A code as the authorization endpoint issues it (hash only; the plain value goes to the client). */
export interface NewCode {
  codeHash: string;
  expiresAt: number;
  challenge: string | null;
  challengeMethod: string | null;
  /** The redirect URI of the authorization request, decoded as matched (RFC 6749 §4.1.3). */
  redirectUri: string;
}

/**
 * What an authorization granted, for OpenID Connect (issue 15, migration 0011): kept on the grant, so
 * the code exchange, every refresh and UserInfo read the same values. All null on a grant recorded
 * before migration 0011.
 */
export interface GrantIdentity {
  /** The authorization request's `scope`, as sent; null when it had none. */
  scope: string | null;
  /** When the user logged in (OIDC Core §2 `auth_time`). */
  authTime: number | null;
  /** The authorization request's `nonce` (OIDC Core §3.1.2.1). */
  nonce: string | null;
}

export interface CodeRecord extends GrantIdentity {
  grantId: number;
  clientInternalId: number;
  uid: string;
  challenge: string | null;
  challengeMethod: string | null;
  /** The authorization request's redirect URI; null for a code issued before migration 0007. */
  redirectUri: string | null;
  expiresAt: number;
  consumed: boolean;
  /** The grant's user may sign in (read with the code: one statement, issue 6). */
  userEnabled: boolean;
}

export interface RefreshTokenRecord extends GrantIdentity {
  id: number;
  grantId: number;
  clientInternalId: number;
  /** The public client identifier of the grant's client. */
  clientId: string;
  uid: string;
  accessTokenId: number | null;
  createdAt: number;
  expiresAt: number;
  rotated: boolean;
  /** The grant's code was redeemed by a public client (PKCE, no secret): client_id alone may refresh. */
  publicClient: boolean;
  /** The grant's user may sign in (read with the token: one statement, issue 6). */
  userEnabled: boolean;
}

export interface AccessTokenRecord {
  id: number;
  /** The grant's scope (UserInfo answers the claims it grants, issue 15). */
  scope: string | null;
  grantId: number;
  uid: string;
  clientId: string;
  createdAt: number;
  expiresAt: number;
}

/** The pair a rotation issued, sealed, kept for the grace window (`oauth2.refresh_reuse_grace`). */
export interface GracePair {
  sealed: string;
  expiresAt: number;
}

export interface AuthorizedClient {
  id: number;
  clientId: string;
  name: string;
  /** The user's first still-live authorization of this client (its oldest live grant). */
  grantedAt: number;
  /**
   * The newest access or refresh token issued under the user's grants of this client (at the code
   * exchange or a refresh; docs/decisions.md); null when none was issued yet.
   */
  lastUsedAt: number | null;
}

export interface CleanupCounts {
  codes: number;
  accessTokens: number;
  refreshTokens: number;
  grants: number;
}

/** Told after each of the cleanup's deletions, for progress output (`./occ oauth2:cleanup`). */
export type CleanupProgress = (step: keyof CleanupCounts, deleted: number) => void;

/**
 * The token endpoint's first read in one statement (issue 17): the client a request names with the
 * code or refresh token it presents; on PostgreSQL one round trip instead of two. Each answers
 * exactly what ClientStore.findByClientId and GrantStore.findCode / findRefreshToken answer for the
 * same values; undefined when there is no such client (then the artefact is not looked at).
 */
export interface TokenLookups {
  clientWithCode(clientId: string, codeHash: string): Promise<{ client: OAuthClient; code: CodeRecord | undefined } | undefined>;
  clientWithRefreshToken(
    clientId: string,
    tokenHash: string,
  ): Promise<{ client: OAuthClient; refreshToken: RefreshTokenRecord | undefined } | undefined>;
  /**
   * PostgreSQL: the same read, to run in the statement that reserves the request's throttle attempt
   * (Throttle.reserveWith: one round trip for both); undefined where the storage cannot.
   */
  riderFor?(plan: ReadAheadPlan): Promise<ReservationRider<ReadAheadFound> | undefined>;
}

/**
 * A write the caller needs committed with a successful issue (a code redeemed, a refresh token
 * rotated), in the issue's own transaction: the token endpoint's throttle settlement (issue 17), so
 * an exchange commits once instead of twice. Opaque to the domain, which only hands it to the grant
 * store.
 */
export interface WriteWithIssue {
  /** Runs the write with the storage's transaction object. */
  run(transaction: unknown): Promise<void>;
  /**
   * When the write only settles one throttle bucket as a success (its attempts in flight and its
   * failures end): that bucket. A store that issues in one statement (PostgreSQL) then makes the
   * settlement part of that statement and calls `folded()` instead of `run`.
   */
  settlesThrottleBucket?: string | undefined;
  folded(): void;
}

/**
 * Grants and everything descending from them. Every secret value is passed as its SHA-256 hex.
 * Contract of the two single-use operations: exactly one of any number of concurrent calls with the
 * same code / refresh token returns true (a compare-and-set on the row, in one transaction with the
 * writes); the others return false and write nothing.
 */
export interface GrantStore {
  /** A new grant (one authorization of a client by a user) with its first code or implicit token. */
  createGrant(
    input: { clientInternalId: number; uid: string; now: number; identity?: GrantIdentity },
    first: { code: NewCode } | { tokens: NewTokens },
  ): Promise<number>;
  findCode(codeHash: string): Promise<CodeRecord | undefined>;
  /**
   * Marks the code consumed and, when given, writes the tokens under the code's grant; `publicClient`
   * marks the grant as redeemed by a public client (its refresh tokens need no secret); `withIssue`
   * runs in the same transaction when tokens were issued.
   */
  redeemCode(
    codeHash: string,
    now: number,
    tokens: NewTokens | undefined,
    options?: { publicClient?: boolean; withIssue?: WriteWithIssue | undefined },
  ): Promise<boolean>;
  /** Finds rotated tokens too (marked), so a replay can be traced to its grant. */
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Marks the refresh token rotated, deletes its access token and writes the new pair; with `grace`,
   * also keeps the sealed new pair until `grace.expiresAt`. Purges grace pairs past their window.
   * `withIssue` runs in the same transaction when the rotation succeeded.
   */
  rotateRefreshToken(
    record: RefreshTokenRecord,
    now: number,
    tokens: NewTokens,
    grace?: GracePair,
    withIssue?: WriteWithIssue,
  ): Promise<boolean>;
  /**
   * The sealed pair a rotation of this (rotated) refresh token issued, while its window is open and
   * its refresh token has not been rotated in turn; otherwise undefined.
   */
  findGracePair(rotatedRefreshTokenId: number, now: number): Promise<string | undefined>;
  /** Deletes one grant and, by cascade, every code and token descending from it. */
  revokeGrant(grantId: number): Promise<boolean>;
  /** Deletes one access token (RFC 7009 revocation of an access token). */
  revokeAccessToken(id: number): Promise<boolean>;
  /** Deletes grace pairs whose window closed (they hold sealed live tokens: keep them no longer). */
  purgeGracePairs(now: number): Promise<number>;
  findAccessToken(tokenHash: string): Promise<AccessTokenRecord | undefined>;
  /**
   * The same with the token's user and the extension of the user's avatar (null: none), read in the
   * same statement (bearer authentication, issue 6; UserInfo's picture, issue 17).
   */
  findAccessTokenWithUser(
    tokenHash: string,
  ): Promise<{ token: AccessTokenRecord; user: User; avatarExtension: string | null } | undefined>;
  /** Clients with a live code, access token or refresh token of this user. */
  authorizedClients(uid: string, now: number): Promise<AuthorizedClient[]>;
  /** Deletes every grant (so every code and token) of this user for this client. */
  revokeClientForUser(uid: string, clientInternalId: number): Promise<number>;
  /** Deletes what expired (or was consumed) at or before `cutoff`, and grants left empty by that. */
  cleanup(cutoff: number, onProgress?: CleanupProgress): Promise<CleanupCounts>;
}
