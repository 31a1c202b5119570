import type { accountErrors } from "../i18n/catalogues/en/account-errors.js";
import { type MessageKey, type MessageValues, type Translator, translatorFor } from "../i18n/index.js";

export type AccountErrorCode =
  | "invalid_uid"
  | "uid_taken"
  | "no_such_user"
  | "invalid_password"
  | "invalid_email"
  | "invalid_display_name"
  | "invalid_name"
  | "invalid_avatar"
  | "invalid_preference";

/** Which sentence says what was refused (the `accountErrors` catalogue, in every language). */
export type AccountErrorText = keyof typeof accountErrors;

/**
 * A refused account operation. `message` is the English sentence (occ, logs); a page shows the
 * same sentence in its reader's language with `translated` (issue 19: every error a person reads).
 */
export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    readonly text: AccountErrorText,
    readonly values: MessageValues = {},
  ) {
    super(translatorFor("en").t(`accountErrors:${text}` as MessageKey, values));
    this.name = "AccountError";
  }

  translated(translator: Translator): string {
    return translator.t(`accountErrors:${this.text}` as MessageKey, this.values);
  }
}
