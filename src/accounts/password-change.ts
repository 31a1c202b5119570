import { type Result, succeeded } from "../refusal.js";
import type { AccountErrorCode } from "./errors.js";
import type { Sessions } from "./sessions.js";
import type { UserDirectory } from "./users.js";

/**
 * A kind of credential a device or application holds for a user besides a browser session: app
 * passwords, OAuth grants (the composition root lists them, services.ts, so accounts names no other
 * domain). What "sign out every device and application" ends.
 */
export interface DeviceCredentials {
  /** Ends every such credential of `uid`; returns how many went. */
  endAllOf(uid: string): Promise<number>;
}

export interface PasswordChangeOptions {
  /** The browser that made the change (the user's own), whose session stays. */
  keepSessionToken?: string | undefined;
  /**
   * Also ends these credentials of the user, so that nothing made with the old password, or with
   * a session that knew it, outlives the change (the user's choice on the personal page).
   */
  endDeviceCredentials?: readonly DeviceCredentials[] | undefined;
}

/**
 * The one rule for a new password, whoever sets it (the user on the personal page, an
 * administrator on the admin page or with `./occ user:resetpassword`): the password is checked
 * and stored, then the user's browser sessions end, so a session opened by someone who knew the
 * old password does not outlive it. App passwords and OAuth grants are device credentials that
 * stay unless `endDeviceCredentials` names them (docs/decisions.md). Gives how many device
 * credentials ended, or the refusal of the password or the user (nothing ends then).
 */
export async function replacePassword(
  users: UserDirectory,
  sessions: Sessions,
  uid: string,
  newPassword: string,
  options: PasswordChangeOptions = {},
): Promise<Result<number, AccountErrorCode>> {
  const set = await users.setPassword(uid, newPassword);
  if (!set.ok) return set;
  await sessions.endAllOf(uid, options.keepSessionToken);
  let ended = 0;
  for (const credentials of options.endDeviceCredentials ?? []) ended += await credentials.endAllOf(uid);
  return succeeded(ended);
}

/**
 * Ends every way `uid` is signed in: each browser session, then each device credential (app
 * passwords and OAuth grants with their tokens, services.ts `deviceCredentials`). The account,
 * its password and its second factors stay. Returns how many sessions and credentials ended.
 */
export async function endEverySignIn(
  sessions: Sessions,
  credentials: readonly DeviceCredentials[],
  uid: string,
): Promise<{ sessions: number; credentials: number }> {
  const ended = { sessions: await sessions.endAllOf(uid), credentials: 0 };
  for (const kind of credentials) ended.credentials += await kind.endAllOf(uid);
  return ended;
}
