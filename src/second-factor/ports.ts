/**
 * What the second-factor module needs from storage. Every table is per user and cascades with the
 * user's row (docs/architecture.md).
 */

/** A user's TOTP enrolment: `pending` until a correct code enables it. */
export interface TotpRecord {
  /** The shared secret (Base32), sealed with the client-secret key file (crypto/secret-box.ts). */
  sealedSecret: string;
  enabled: boolean;
  /** The RFC 6238 time step of the last code accepted; null before the first. */
  lastUsedStep: number | null;
  createdAt: number;
}

export interface TotpStore {
  /** The user's enrolment, pending or enabled, or undefined. */
  find(uid: string): Promise<TotpRecord | undefined>;
  /**
   * Stores a new pending enrolment, replacing a pending one; false, with nothing written, when
   * an enabled one exists (it is disabled first, explicitly).
   */
  savePending(uid: string, sealedSecret: string, at: number): Promise<boolean>;
  /**
   * Enables the pending enrolment whose secret is `sealedSecret` with the step of the code that
   * proved it, in one conditional statement; false when there is no such pending enrolment (it
   * was replaced or enabled meanwhile).
   */
  enable(uid: string, sealedSecret: string, step: number, at: number): Promise<boolean>;
  /**
   * Records `step` as used when it is later than the last used step of the enabled enrolment, in
   * one conditional statement: of two requests with the same code, exactly one gets true (a code
   * is accepted once, RFC 6238 §5.2).
   */
  useStep(uid: string, step: number): Promise<boolean>;
  /** Deletes the enrolment, pending or enabled; true when there was one. */
  delete(uid: string): Promise<boolean>;
}

export interface RecoveryCodeCounts {
  total: number;
  unused: number;
}

export interface RecoveryCodeStore {
  /** Replaces the user's codes by these hashes, in one transaction (the old set is void at once). */
  replace(uid: string, hashes: readonly string[], at: number): Promise<void>;
  /**
   * Marks the unused code `hash` of `uid` used at `at`, in one conditional statement; false when
   * there is no such unused code (of two requests with one code, exactly one gets true).
   */
  use(uid: string, hash: string, at: number): Promise<boolean>;
  counts(uid: string): Promise<RecoveryCodeCounts>;
  /** Deletes every code of the user; true when there was one. */
  deleteAll(uid: string): Promise<boolean>;
}

/** Which providers each of several users has on, for the administrator's users table. */
export interface SecondFactorOverview {
  /** uid → ids of the providers the user has on (only users with at least one appear). */
  enabledByUser(): Promise<Map<string, string[]>>;
}
