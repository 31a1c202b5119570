import type { accountErrors } from "../i18n/catalogues/en/account-errors.js";
import type { MessageValues } from "../i18n/index.js";
import { type Refusal, type Result, refused } from "../refusal.js";

export type AccountErrorCode =
  | "invalid_uid"
  | "uid_taken"
  | "uid_of_deleted_user"
  | "no_such_user"
  | "invalid_password"
  | "invalid_email"
  | "email_taken"
  | "invalid_display_name"
  | "invalid_name"
  | "invalid_avatar"
  | "invalid_preference";

/** Which sentence says what was refused (the `accountErrors` catalogue, in every language). */
export type AccountErrorText = keyof typeof accountErrors;

/** A refused account operation (src/refusal.ts): `message` in English (occ, logs), `phrase` for a page. */
export type AccountRefusal = Refusal<AccountErrorCode>;

/** An account operation's outcome: its value, or the refusal. */
export type AccountResult<T> = Result<T, AccountErrorCode>;

/** The refusal with `code`, told by the `accountErrors` sentence `text`. */
export function accountRefusal(code: AccountErrorCode, text: AccountErrorText, values: MessageValues = {}): AccountRefusal {
  return refused(code, { key: `accountErrors:${text}`, values });
}
