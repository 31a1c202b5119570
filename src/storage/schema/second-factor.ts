import type { ColumnType } from "kysely";
import type { EpochSeconds } from "./accounts.js";

/** One TOTP enrolment per user (migration 0023). */
export interface SecondFactorTotpTable {
  uid: string;
  /** The Base32 secret sealed with the client-secret key file (crypto/secret-box.ts). */
  sealed_secret: string;
  /** 0 while pending (no correct code yet), 1 once enabled. */
  enabled: ColumnType<number, number | undefined, number>;
  /** The RFC 6238 time step of the last accepted code; null before the first. */
  last_used_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: EpochSeconds;
}

/** A user's recovery codes, SHA-256 hex only (migration 0023). */
export interface SecondFactorRecoveryCodesTable {
  uid: string;
  code_hash: string;
  created_at: EpochSeconds;
  /** When the code was used; null while unused. */
  used_at: ColumnType<EpochSeconds | null, EpochSeconds | null | undefined, EpochSeconds | null>;
}

export interface SecondFactorTables {
  second_factor_totp: SecondFactorTotpTable;
  second_factor_recovery_codes: SecondFactorRecoveryCodesTable;
}
