import { type AuditTrail, NO_AUDIT } from "../audit/recorder.js";
import type { Clock } from "../clock.js";
import type { SecretSealer } from "../crypto/secret-box.js";
import { matchTotpStep, newTotpSecret } from "./domain/totp.js";
import type { TotpStore } from "./ports.js";
import { type FactorChangeObserver, FactorChanges, type SecondFactorProvider } from "./providers.js";

/**
 * TOTP (RFC 6238), provider `totp`. Enrolment is two steps: `begin` makes a secret and keeps it
 * pending; `confirm` enables it only with a correct code for it, so a secret the user's app did not
 * take never locks them out. The secret is stored sealed (AES-256-GCM with the client-secret key
 * file, as client secrets are); every accepted code records its time step, and a code of that step
 * or an earlier one is refused: a code is accepted once (RFC 6238 §5.2).
 */
export class TotpFactor implements SecondFactorProvider {
  readonly id = "totp" as const;
  readonly primary = true;
  private readonly changes: FactorChanges;

  constructor(
    private readonly store: TotpStore,
    private readonly sealer: SecretSealer,
    private readonly clock: Clock,
    private readonly audit: AuditTrail = NO_AUDIT,
    /** Told when the provider is added or removed for a user (the user is notified of it). */
    changed?: FactorChangeObserver,
  ) {
    this.changes = new FactorChanges("totp", changed);
  }

  async isEnabledFor(uid: string): Promise<boolean> {
    return (await this.store.find(uid))?.enabled === true;
  }

  isOfferedTo(uid: string): Promise<boolean> {
    return this.isEnabledFor(uid);
  }

  /** A new pending secret (Base32) for the user, or undefined when TOTP is already on. */
  async begin(uid: string): Promise<string | undefined> {
    const secret = newTotpSecret();
    const saved = await this.store.savePending(uid, this.sealer.encrypt(secret), this.clock.nowSeconds());
    return saved ? secret : undefined;
  }

  /** The pending enrolment's secret, or undefined when none is pending. */
  async pendingSecret(uid: string): Promise<string | undefined> {
    const record = await this.store.find(uid);
    return record && !record.enabled ? this.sealer.decrypt(record.sealedSecret) : undefined;
  }

  /** Enables the pending enrolment when `code` is a current code of its secret. */
  async confirm(uid: string, code: string): Promise<boolean> {
    const record = await this.store.find(uid);
    if (!record || record.enabled) return false;
    const now = this.clock.nowSeconds();
    const step = matchTotpStep(this.sealer.decrypt(record.sealedSecret), code, now);
    const enabled = step !== undefined && (await this.store.enable(uid, record.sealedSecret, step, now));
    if (enabled)
      this.audit.record("second_factor.enabled", { uid, subject: { type: "factor", id: "totp" }, detail: { factor: "totp" } });
    return this.changes.tell(uid, "added", enabled);
  }

  async verify(uid: string, code: string): Promise<boolean> {
    const record = await this.store.find(uid);
    if (!record?.enabled) return false;
    const step = matchTotpStep(this.sealer.decrypt(record.sealedSecret), code, this.clock.nowSeconds());
    if (step === undefined || (record.lastUsedStep !== null && step <= record.lastUsedStep)) return false;
    return this.store.useStep(uid, step);
  }

  async disableFor(uid: string): Promise<boolean> {
    const enabled = await this.isEnabledFor(uid);
    const disabled = (await this.store.delete(uid)) && enabled;
    if (disabled)
      this.audit.record("second_factor.disabled", { uid, subject: { type: "factor", id: "totp" }, detail: { factor: "totp" } });
    return this.changes.tell(uid, "removed", disabled);
  }

  /** Abandons a pending enrolment (an enabled one stays). */
  async cancel(uid: string): Promise<void> {
    const record = await this.store.find(uid);
    if (record && !record.enabled) await this.store.delete(uid);
  }
}
