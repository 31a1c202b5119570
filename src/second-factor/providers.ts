/**
 * The providers of a second factor, by the ids ownCloud's and Nextcloud's two-factor apps use
 * (`./occ twofactorauth:disable UID PROVIDER`): `totp` (twofactor_totp), `backup_codes`
 * (twofactor_backupcodes), `webauthn` (twofactor_webauthn, passkeys).
 */
export const PROVIDER_IDS = ["totp", "backup_codes", "webauthn"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

/**
 * Where the answer to a challenge was given: the site's origin (scheme, host, port) as its base URL
 * says. A passkey's assertion is bound to it (W3C WebAuthn Level 3 §7.2 steps 9 and 15).
 */
export interface ChallengeContext {
  origin: string;
}

/**
 * One kind of second factor. A provider is registered with the SecondFactors service
 * (service.ts); the challenge page offers every registered provider the user has on, and the
 * administrator's commands and page switch it off by its id.
 */
export interface SecondFactorProvider {
  readonly id: ProviderId;
  /**
   * Whether having this provider on makes the user a two-factor user. Recovery codes are not:
   * they stand in for another factor (Nextcloud's Manager::isTwoFactorAuthenticated leaves
   * `backup_codes` out the same way).
   */
  readonly primary: boolean;
  isEnabledFor(uid: string): Promise<boolean>;
  /** Whether the challenge page offers it to the user now (e.g. recovery codes: one unused left). */
  isOfferedTo(uid: string): Promise<boolean>;
  /**
   * Checks the user's answer to the challenge (a code; for a passkey, the authenticator's
   * response as JSON). True once accepted; an accepted answer is spent and never accepted again.
   */
  verify(uid: string, answer: string, context: ChallengeContext): Promise<boolean>;
  /** Switches the provider off for the user (its secrets deleted); true when it was on. */
  disableFor(uid: string): Promise<boolean>;
}

/** A second factor added or removed for a user (the user is notified of it). */
export type FactorChangeObserver = (uid: string, provider: ProviderId, change: "added" | "removed") => Promise<void>;

/** A provider's observers of its changes: told after the change is stored. */
export class FactorChanges {
  constructor(
    private readonly provider: ProviderId,
    private readonly observer?: FactorChangeObserver,
  ) {}

  /** Tells the observer, when `changed` (the store's answer) says something changed; returns `changed`. */
  async tell(uid: string, change: "added" | "removed", changed = true): Promise<boolean> {
    if (changed) await this.observer?.(uid, this.provider, change);
    return changed;
  }
}
