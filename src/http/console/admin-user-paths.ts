import { SETTINGS_PAGES } from "./settings-sections.js";

/** Where the forms about one user post: `/index.php/settings/users/<uid>/<action>`. */
export const USERS_FORM_PATH = "/index.php/settings/users";
/** The id of the notice at the top of a user's page after a change (post/redirect/get). */
export const USER_NOTICE_ID = "user-notice";

/** One user's page in the administration console. */
export function userPagePath(uid: string): string {
  return `${SETTINGS_PAGES.users.path}/${encodeURIComponent(uid)}`;
}

export function userFormPath(uid: string, action: string): string {
  return `${USERS_FORM_PATH}/${encodeURIComponent(uid)}/${action}`;
}
