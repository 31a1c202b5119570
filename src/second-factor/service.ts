import type { SessionPending } from "../accounts/ports.js";
import type { SecondFactorOverview } from "./ports.js";
import { type ChallengeContext, PROVIDER_IDS, type ProviderId, type SecondFactorProvider } from "./providers.js";

/** Whether every user must have a second factor (`./occ twofactorauth:enforce --on|--off`). */
export interface Enforcement {
  enforced(): boolean;
  setEnforced(on: boolean): void;
}

/** A provider's state for one user, as `./occ twofactorauth:state` prints it. */
export interface ProviderState {
  id: ProviderId;
  enabled: boolean;
}

/**
 * The registry of second-factor providers and the rules that span them: whether a user is a
 * two-factor user, what a login owes after the password, and the administrator's switches.
 */
export class SecondFactors {
  private readonly providers: readonly SecondFactorProvider[];

  constructor(
    providers: readonly SecondFactorProvider[],
    private readonly enforcement: Enforcement,
    private readonly overview: SecondFactorOverview,
  ) {
    // Listed in the ids' order, whatever order they were registered in.
    this.providers = PROVIDER_IDS.flatMap((id) => providers.filter((p) => p.id === id));
  }

  /** The registered provider `id`, or undefined (e.g. `webauthn` before passkeys exist). */
  provider(id: ProviderId): SecondFactorProvider | undefined {
    return this.providers.find((p) => p.id === id);
  }

  async states(uid: string): Promise<ProviderState[]> {
    return Promise.all(this.providers.map(async (p) => ({ id: p.id, enabled: await p.isEnabledFor(uid) })));
  }

  /** The user has a primary factor on: the password alone no longer proves them. */
  async hasSecondFactor(uid: string): Promise<boolean> {
    for (const p of this.providers) if (p.primary && (await p.isEnabledFor(uid))) return true;
    return false;
  }

  /** The providers the challenge page offers the user. */
  async offeredTo(uid: string): Promise<ProviderId[]> {
    const offered = await Promise.all(this.providers.map(async (p) => ((await p.isOfferedTo(uid)) ? [p.id] : [])));
    return offered.flat();
  }

  enforced(): boolean {
    return this.enforcement.enforced();
  }

  setEnforced(on: boolean): void {
    this.enforcement.setEnforced(on);
  }

  /**
   * Whether the account password alone is refused for `uid` (HTTP Basic): the user has a second
   * factor, or second factors are enforced (as Nextcloud's isTwoFactorAuthenticated is true for
   * an enforced user).
   */
  async required(uid: string): Promise<boolean> {
    return this.enforced() || this.hasSecondFactor(uid);
  }

  /** What a login owes once the password is right: the challenge, the enforced setup, or nothing. */
  async stepAfterPassword(uid: string): Promise<SessionPending | null> {
    if (await this.hasSecondFactor(uid)) return "second_factor";
    return this.enforced() ? "second_factor_setup" : null;
  }

  /** Checks the answer with the provider, when the user has it offered. */
  async verify(uid: string, id: ProviderId, answer: string, context: ChallengeContext): Promise<boolean> {
    const provider = this.provider(id);
    return provider !== undefined && (await provider.isOfferedTo(uid)) && provider.verify(uid, answer, context);
  }

  /** Switches provider `id` off for the user; undefined when no such provider is registered. */
  async disable(uid: string, id: ProviderId): Promise<boolean | undefined> {
    return this.provider(id)?.disableFor(uid);
  }

  /** uid → the provider ids each user has on (users with none are absent); with `uids`, only theirs. */
  enabledByUser(uids?: readonly string[]): Promise<Map<string, string[]>> {
    return this.overview.enabledByUser(uids);
  }
}
