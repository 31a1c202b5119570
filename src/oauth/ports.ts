import type { User } from "../accounts/ports.js";
import type { Phrase } from "../i18n/index.js";
import type { ThrottleBucket } from "../security/domain/throttle-policy.js";
import type { Settlement } from "../security/ports.js";
import type { ClientFields } from "./domain/client-rules.js";
import type { DeviceState } from "./domain/device-flow.js";

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
  /** A registered client's last grant or token issue (RFC 7591 clients only); absent: never used. */
  lastUsedAt?: number;
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
  /** Records a use of a registered client (its `lastUsedAt`); a client an administrator added is left as it is. */
  markUsed(id: number, now: number): Promise<void>;
  /**
   * Deletes, with their grants, codes and tokens (by cascade), the registered clients whose last
   * use (or registration, when never used) is at or before `cutoff`; returns how many went.
   */
  removeUnusedRegistered(cutoff: number): Promise<number>;
  /** The groups each client admits, by internal id, ordered; a client that admits everyone is absent. */
  allowedGroups(ids: readonly number[]): Promise<Map<number, string[]>>;
  /**
   * Replaces the client's allowed groups (empty: everyone, as ownCloud) and, in the same
   * transaction, deletes the grants (their codes and tokens cascade) of users in none of them, so
   * their refresh and access tokens stop at once on every node; returns how many grants ended. The
   * groups must exist (a foreign key refuses others, writing nothing).
   */
  setAllowedGroups(id: number, gids: readonly string[]): Promise<number>;
  /** Whether the client admits the user: it names no group, or the user is a member of one. One statement. */
  admits(id: number, uid: string): Promise<boolean>;
}

/**
 * What client administration needs of groups (src/groups provides it through the composition root):
 * an allowed-groups list as an administrator writes it, comma-separated, resolved to existing group ids.
 */
export interface GroupLists {
  /** The ids, trimmed, without duplicates ("" is the empty list); an unknown or invalid id is refused with what to say. */
  resolve(text: string): Promise<{ gids: string[] } | { problem: Phrase; message: string }>;
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
  /**
   * The redirect URI of the authorization request, decoded as matched (RFC 6749 §4.1.3); null for
   * the code a device authorization's approval records, which goes to no redirect URI (RFC 8628).
   */
  redirectUri: string | null;
}

/**
 * What an authorization granted, for OpenID Connect (migration 0011): kept on the grant, so
 * the code exchange, every refresh and UserInfo read the same values. All null on a grant recorded
 * before migration 0011.
 */
export interface GrantIdentity {
  /** What the authorization granted (src/oauth/domain/scope.ts); null only on a grant older than scopes. */
  scope: string | null;
  /** When the user logged in (OIDC Core §2 `auth_time`). */
  authTime: number | null;
  /** The authorization request's `nonce` (OIDC Core §3.1.2.1). */
  nonce: string | null;
  /**
   * The browser session the authorization was granted in (its id hash, accounts/sessions.ts
   * `sessionId`), for the ID tokens' `sid` (OpenID Back-Channel Logout 1.0 §2.1); null or absent
   * when none is known (a grant older than migration 0021).
   */
  sessionIdHash?: string | null;
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
  /** The grant's user may sign in (read with the code, in the same statement). */
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
  /** The grant's user may sign in (read with the token, in the same statement). */
  userEnabled: boolean;
}

export interface AccessTokenRecord {
  id: number;
  /** The grant's scope (UserInfo answers the claims it grants, OIDC Core §5.4). */
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
  /** Device authorizations (RFC 8628), whatever their state. */
  deviceCodes: number;
  codes: number;
  accessTokens: number;
  refreshTokens: number;
  grants: number;
}

/** Told after each of the cleanup's deletions, for progress output (`./occ oauth2:cleanup`). */
export type CleanupProgress = (step: keyof CleanupCounts, deleted: number) => void;

/** What to read ahead: the client a request names and the hash of the code or refresh token it presents. */
export type ReadAheadPlan = { clientId: string } & ({ codeHash: string } | { refreshTokenHash: string });

/**
 * A token request's client and presented code or refresh token, read before client authentication
 * and the grant run their checks on them (each check on the row it would have read itself).
 */
export interface ReadAhead {
  clientId: string;
  client: OAuthClient | undefined;
  /** The presented code's hash and its row; absent when no code was read. */
  code?: { hash: string; record: CodeRecord | undefined };
  /** The presented refresh token's hash and its row; absent when none was read. */
  refreshToken?: { hash: string; record: RefreshTokenRecord | undefined };
}

/**
 * A throttle settlement to commit inside another write (the code redemption or refresh rotation of
 * a token request), so the issue and the settlement commit once: the buckets' keys, in the order
 * their rows are locked, and how they end.
 */
export interface PendingSettlement {
  keys: string[];
  settlement: Settlement;
  now: number;
}

/** A token request's throttle reservation: refused (429 with Retry-After), or admitted after `delayMs`. */
export type TokenGateReservation =
  | { admitted: false; retryAfterSeconds: number }
  | {
      admitted: true;
      delayMs: number;
      /** What the plan named, read with the reservation; undefined without a plan. */
      readAhead: ReadAhead | undefined;
    };

/**
 * The token endpoint's gate: the throttle reservation (security/domain/throttle-policy.ts: reserved
 * before anything is checked, so concurrent attempts count each other) with the request's first
 * read, and the settlement. The same rules and statements as the token throttle's ThrottleStore.
 */
export interface TokenGate {
  /**
   * Reserves the attempt in every bucket, in key order; the buckets reserved before a refused one
   * are given back. Admitted with a plan: the client it names and the code or refresh token it
   * presents, each as ClientStore.findByClientId and GrantStore.findCode / findRefreshToken answer
   * them (no such client: `client` undefined, the artefact not looked at). A refused attempt reads
   * nothing. A database that can runs the reservation and the read in one statement.
   */
  reserve(buckets: ThrottleBucket[], plan: ReadAheadPlan | undefined): Promise<TokenGateReservation>;
  /** The same read without a reservation (after a delay, the reservation's read may be stale). */
  read(plan: ReadAheadPlan): Promise<ReadAhead>;
  /** Ends an admitted attempt's reservation (security/ports.ts Settlement) when no write committed it. */
  settle(pending: PendingSettlement): Promise<void>;
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
   * marks the grant as redeemed by a public client (its refresh tokens need no secret); `settle`, a
   * throttle settlement, commits with the tokens: when this returns true with tokens given, it is
   * committed; when it returns false, it was not written.
   */
  redeemCode(
    codeHash: string,
    now: number,
    tokens: NewTokens | undefined,
    options?: { publicClient?: boolean; settle?: PendingSettlement | undefined },
  ): Promise<boolean>;
  /** Finds rotated tokens too (marked), so a replay can be traced to its grant. */
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Marks the refresh token rotated, deletes its access token and writes the new pair; with `grace`,
   * also keeps the sealed new pair until `grace.expiresAt`. Purges grace pairs past their window.
   * `settle`, a throttle settlement, commits with the rotation: written exactly when this returns true.
   */
  rotateRefreshToken(
    record: RefreshTokenRecord,
    now: number,
    tokens: NewTokens,
    grace?: GracePair,
    settle?: PendingSettlement,
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
   * same statement (bearer authentication, and UserInfo's `picture`).
   */
  findAccessTokenWithUser(
    tokenHash: string,
  ): Promise<{ token: AccessTokenRecord; user: User; avatarExtension: string | null } | undefined>;
  /** Clients with a live code, access token or refresh token of this user. */
  authorizedClients(uid: string, now: number): Promise<AuthorizedClient[]>;
  /**
   * The scope of each live grant (a live code, access token or refresh token) of this user for this
   * client: what the user consented to and has not revoked.
   */
  liveGrantScopes(uid: string, clientInternalId: number, now: number): Promise<string[]>;
  /** Deletes every grant (so every code and token) of this user for this client. */
  revokeClientForUser(uid: string, clientInternalId: number): Promise<number>;
  /**
   * Deletes every grant (so every code and token) of this user, of every client, in one statement;
   * returns the internal id of each deleted grant's client (one entry per grant).
   */
  revokeAllForUser(uid: string): Promise<number[]>;
  /** Deletes what expired (or was consumed) at or before `cutoff`, and grants left empty by that. */
  cleanup(cutoff: number, onProgress?: CleanupProgress): Promise<Omit<CleanupCounts, "deviceCodes">>;
}

/** A device authorization (RFC 8628 §3.2) as its poll reads it. */
export interface DeviceAuthorizationRecord {
  clientInternalId: number;
  /** What the authorization is for (src/oauth/domain/scope.ts `grantedScope`). */
  scope: string;
  state: DeviceState;
  expiresAt: number;
  /** The seconds the client must wait between polls (RFC 8628 §3.5: grows with each `slow_down`). */
  interval: number;
  /** When the client last polled; null before its first poll. */
  lastPolledAt: number | null;
  /** The device authorization request came with client_id alone (a public client, RFC 6749 §2.1). */
  publicClient: boolean;
  /**
   * Once approved: the hash of the authorization code the approval recorded under its new grant.
   * Nobody holds that code's value: the device code's poll redeems it, through GrantStore.redeemCode.
   */
  codeHash: string | null;
}

/**
 * Device authorizations (table oauth2_device_codes). Device and user codes arrive as SHA-256 hex
 * digests, the user code normalized first (domain/device-flow.ts). Every state change is one
 * conditional statement or one transaction, so of concurrent requests on any nodes only one wins.
 */
export interface DeviceAuthorizationStore {
  /** Inserts a pending authorization; false, with nothing written, when the user code is taken. */
  insert(row: {
    deviceCodeHash: string;
    userCodeHash: string;
    clientInternalId: number;
    scope: string;
    publicClient: boolean;
    now: number;
    expiresAt: number;
    interval: number;
  }): Promise<boolean>;
  /** The authorization behind a device code, in any state, live or expired (until purged); else undefined. */
  findByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | undefined>;
  /** The authorization behind a user code while it is live (now < expiry) and pending; else undefined. */
  findPendingByUserCode(userCodeHash: string, now: number): Promise<DeviceAuthorizationRecord | undefined>;
  /**
   * In one transaction: claims the live pending authorization (pending → approved), records a grant
   * of its client to `grant.uid` with its scope and `authTime`, the grant's first code (`grant.code`),
   * and that code's hash on the authorization. False, with nothing written, when it is not live and
   * pending.
   */
  approve(userCodeHash: string, now: number, grant: { uid: string; authTime: number | null; code: NewCode }): Promise<boolean>;
  /** pending → denied while live; false when it was not live and pending. */
  deny(userCodeHash: string, now: number): Promise<boolean>;
  /**
   * Records a poll of a pending authorization (RFC 8628 §3.5): its time, and the interval from now
   * on, as a compare-and-set on the previous poll's time the caller read (`previousPollAt`). False,
   * with nothing written, when another poll or the user's decision came first.
   */
  recordPoll(deviceCodeHash: string, previousPollAt: number | null, now: number, interval: number): Promise<boolean>;
  /** Deletes the authorizations that expired at or before `cutoff`; returns how many. */
  purgeExpired(cutoff: number): Promise<number>;
}
