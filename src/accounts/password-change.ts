import type { Sessions } from "./sessions.js";
import type { UserDirectory } from "./users.js";

/**
 * The one rule for a new password, whoever sets it (the user on the personal page, an
 * administrator on the admin page or with `./occ user:resetpassword`): the password is checked
 * and stored, then the user's browser sessions end, so a session opened by someone who knew the
 * old password does not outlive it. `keepSessionToken` is the browser that made the change (the
 * user's own); app passwords and OAuth grants are device credentials revoked on their own
 * (docs/decisions.md).
 */
export async function replacePassword(
  users: UserDirectory,
  sessions: Sessions,
  uid: string,
  newPassword: string,
  keepSessionToken?: string,
): Promise<void> {
  await users.setPassword(uid, newPassword);
  await sessions.endAllOf(uid, keepSessionToken);
}
