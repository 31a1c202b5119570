import type { JWK } from "jose";
import type { EndedSessions } from "../accounts/ports.js";

/** A signing key as stored: the private JWK sealed (AES-256-GCM with the client-secret key). */
export interface StoredSigningKey {
  kid: string;
  alg: string;
  publicJwk: JWK;
  privateJwkSealed: string;
  createdAt: number;
  retiredAt: number | null;
}

/** Where the signing keys live: the database, shared by every node. */
export interface SigningKeyStore {
  /** Every key, live and retired, in no particular order. */
  list(): Promise<StoredSigningKey[]>;
  /** Inserts the key; when `retireOthersAt` is given, in the same transaction retires every other live key. */
  insert(key: StoredSigningKey, retireOthersAt?: number): Promise<void>;
  /** Deletes keys retired at or before `cutoff` (past their grace period). */
  deleteRetiredBefore(cutoff: number): Promise<number>;
}

/** A logout token to send (OpenID Back-Channel Logout 1.0 §2.4–§2.5), claimed by this node. */
export interface ClaimedLogout {
  id: number;
  /** The public client identifier: the token's `aud`. */
  clientId: string;
  backchannelLogoutUri: string;
  sid: string;
  uid: string;
  issuer: string;
  /** Sends tried before this one. */
  attempts: number;
}

/**
 * Back-channel logout's storage: which clients received an ID token in which session, and the
 * durable queue of logout tokens to send, shared by every node.
 */
export interface LogoutQueueStore {
  /**
   * Records that the client (public identifier) received an ID token with `sid` for `uid` in the
   * session `sessionIdHash`; a second record of the same session and client changes nothing.
   */
  recordSessionClient(entry: {
    sessionIdHash: string;
    clientId: string;
    uid: string;
    sid: string;
    issuer: string;
    now: number;
  }): Promise<void>;
  /**
   * In one transaction: a delivery due at `now` for each client recorded for the ended sessions
   * that has a back-channel logout URI, and every record of those sessions deleted (a session is
   * announced once). Returns the deliveries queued.
   */
  enqueue(ended: EndedSessions, now: number): Promise<number>;
  /** Ids of deliveries due at `now` that nobody holds, the longest-waiting first, at most `limit`. */
  due(now: number, limit: number): Promise<number[]>;
  /**
   * Takes the delivery for `holder` until `leaseUntil` when it is due and nobody holds it (one
   * conditional UPDATE: of two nodes asking at once at most one wins). Undefined when another
   * holds it, it is gone, or its client no longer has a back-channel logout URI (then it is deleted).
   */
  claim(id: number, holder: string, now: number, leaseUntil: number): Promise<ClaimedLogout | undefined>;
  /** Deletes the delivery (sent, or given up), when `holder` still holds it. */
  finish(id: number, holder: string): Promise<void>;
  /** Gives the delivery back for another try at `nextAttemptAt`, its attempts counted, when `holder` holds it. */
  retryLater(id: number, holder: string, attempts: number, nextAttemptAt: number): Promise<void>;
  /** Deletes records of sessions that no longer exist (expired ones: nobody logged out). */
  purgeEndedSessionRecords(): Promise<number>;
}
