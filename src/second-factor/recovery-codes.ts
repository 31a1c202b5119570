import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import { newRecoveryCodes, recoveryCodeHash } from "./domain/recovery-codes.js";
import type { RecoveryCodeCounts, RecoveryCodeStore } from "./ports.js";
import { type FactorChangeObserver, FactorChanges, type SecondFactorProvider } from "./providers.js";

/**
 * Recovery codes, provider `backup_codes` (Nextcloud's twofactor_backupcodes): a set of single-use
 * codes for when the other factor is lost. A set is shown once when made and stored hashed only;
 * making a new set voids the old one. They stand in for another factor and are not one themselves.
 */
export class RecoveryCodes implements SecondFactorProvider {
  readonly id = "backup_codes" as const;
  readonly primary = false;
  private readonly changes: FactorChanges;

  constructor(
    private readonly store: RecoveryCodeStore,
    private readonly clock: Clock,
    private readonly audit: AuditTrail = NO_AUDIT,
    /** Told when the provider is added or removed for a user (the user is notified of it). */
    changed?: FactorChangeObserver,
  ) {
    this.changes = new FactorChanges("backup_codes", changed);
  }

  /** A new set for the user (the old one void), as the user is shown it once. */
  async regenerate(uid: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.store.replace(uid, codes.map(recoveryCodeHash), this.clock.nowSeconds());
    this.audit.record("second_factor.enabled", {
      uid,
      subject: { type: "factor", id: "backup_codes" },
      detail: { factor: "backup_codes" },
    });
    await this.changes.tell(uid, "added");
    return codes;
  }

  counts(uid: string): Promise<RecoveryCodeCounts> {
    return this.store.counts(uid);
  }

  async isEnabledFor(uid: string): Promise<boolean> {
    return (await this.store.counts(uid)).total > 0;
  }

  async isOfferedTo(uid: string): Promise<boolean> {
    return (await this.store.counts(uid)).unused > 0;
  }

  verify(uid: string, code: string): Promise<boolean> {
    if (code.trim() === "") return Promise.resolve(false);
    return this.store.use(uid, recoveryCodeHash(code), this.clock.nowSeconds());
  }

  async disableFor(uid: string): Promise<boolean> {
    const disabled = await this.store.deleteAll(uid);
    if (disabled) {
      this.audit.record("second_factor.disabled", {
        uid,
        subject: { type: "factor", id: "backup_codes" },
        detail: { factor: "backup_codes" },
      });
    }
    return this.changes.tell(uid, "removed", disabled);
  }
}
