import type { JWK } from "jose";

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
