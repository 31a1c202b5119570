import type { Clock } from "../clock.js";
import { sha256Hex } from "../crypto/secrets.js";
import type { PasswordConfirmationStore } from "./ports.js";
import type { Session } from "./sessions.js";

/**
 * How long a password confirmation lasts: 30 minutes, Nextcloud's window for the actions marked
 * `#[PasswordConfirmationRequired]` (nextcloud/server
 * lib/private/AppFramework/Middleware/Security/PasswordConfirmationMiddleware.php, `30 * 60`; it
 * adds 15 seconds for a page submitted just too late, which the confirmation step here makes
 * unneeded: such a submission is asked for the password and then carried on).
 */
export const PASSWORD_CONFIRMATION_WINDOW_SECONDS = 30 * 60;

/** The rule: a confirmation made at `confirmedAt` still counts at `now`. */
export function confirmationIsRecent(confirmedAt: number, now: number): boolean {
  return now - confirmedAt < PASSWORD_CONFIRMATION_WINDOW_SECONDS;
}

/**
 * The one rule for actions that hand out a lasting credential (an app password, a Login Flow v2
 * grant) and, later, those that change how the account is proven (second factors): a browser
 * session may do them only within PASSWORD_CONFIRMATION_WINDOW_SECONDS of its user proving the
 * password, so a session taken over (a borrowed computer, a stolen cookie) cannot turn itself into
 * access that outlives it. The login counts as a proof, as Nextcloud sets `last-password-confirm`
 * at login (nextcloud/server lib/private/Authentication/Login/UpdateLastPasswordConfirmCommand.php);
 * so does a password change, which checks the current password. Checking the password itself
 * (with the login throttle) is the HTTP layer's, which then calls `record`.
 */
export class PasswordConfirmations {
  constructor(
    private readonly store: PasswordConfirmationStore,
    private readonly clock: Clock,
  ) {}

  /** Whether the session's user proved the password recently enough; false for no such session. */
  async isRecent(session: Pick<Session, "token">): Promise<boolean> {
    const confirmedAt = await this.store.confirmedAt(sha256Hex(session.token));
    return confirmedAt !== undefined && confirmationIsRecent(confirmedAt, this.clock.nowSeconds());
  }

  /** Records that the session's user proved the password now. */
  record(session: Pick<Session, "token">): Promise<void> {
    return this.store.record(sha256Hex(session.token), this.clock.nowSeconds());
  }
}
