import type { ColumnType } from "kysely";
import type { EpochSeconds } from "./accounts.js";

/** A user's passkeys (migration 0024). */
export interface WebAuthnCredentialsTable {
  /** The credential id, base64url. */
  credential_id: string;
  uid: string;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  sign_count: ColumnType<number, number, number>;
  /** The transports, comma-separated. */
  transports: string;
  created_at: EpochSeconds;
  last_used_at: ColumnType<EpochSeconds | null, EpochSeconds | null | undefined, EpochSeconds | null>;
}

/** Challenges handed out and not yet answered (migration 0024). */
export interface WebAuthnChallengesTable {
  challenge: string;
  binding: string;
  expires_at: EpochSeconds;
}

export interface PasskeyTables {
  webauthn_credentials: WebAuthnCredentialsTable;
  webauthn_challenges: WebAuthnChallengesTable;
}
