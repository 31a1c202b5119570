import { Passkeys } from "../second-factor/passkeys.js";
import type { FactorChangeObserver } from "../second-factor/providers.js";
import { RecoveryCodes } from "../second-factor/recovery-codes.js";
import { SecondFactors } from "../second-factor/service.js";
import { TotpFactor } from "../second-factor/totp.js";
import { SqlPasskeyStore, SqlWebAuthnChallengeStore } from "../storage/stores/second-factor/passkey-store.js";
import {
  SqlRecoveryCodeStore,
  SqlSecondFactorOverview,
  SqlTotpStore,
} from "../storage/stores/second-factor/second-factor-store.js";
import type { Foundation, Module } from "./foundation.js";

export interface SecondFactorServices {
  /** Second factors: the providers (TOTP, recovery codes), enforcement, the login's step after the password. */
  secondFactors: SecondFactors;
  totp: TotpFactor;
  recoveryCodes: RecoveryCodes;
  /** Passkeys (WebAuthn): registration, passwordless sign-in, and the provider `webauthn`. */
  passkeys: Passkeys;
}

/**
 * The second-factor providers on SQL storage (TOTP secrets sealed with the key file's box), each
 * telling `changed` of its additions and removals, and their registry with the enforcement switch.
 */
export function wireSecondFactors(
  { db, sealer, clock, settings, audit }: Pick<Foundation, "db" | "sealer" | "clock" | "settings" | "audit">,
  changed: FactorChangeObserver,
): Module<SecondFactorServices> {
  const totp = new TotpFactor(new SqlTotpStore(db), sealer, clock, audit, changed);
  const recoveryCodes = new RecoveryCodes(new SqlRecoveryCodeStore(db), clock, audit, changed);
  const passkeys = new Passkeys(new SqlPasskeyStore(db), new SqlWebAuthnChallengeStore(db), clock, audit, changed);
  const secondFactors = new SecondFactors(
    [totp, recoveryCodes, passkeys],
    {
      enforced: () => settings.get("twofactor_enforced"),
      setEnforced: (on) => settings.set("twofactor_enforced", on),
    },
    new SqlSecondFactorOverview(db),
  );
  return { services: { secondFactors, totp, recoveryCodes, passkeys }, jobs: [] };
}
