import type { accountErrors } from "../i18n/catalogues/en/account-errors.js";
import { inEnglish, type MessageValues, type Phrase, say, type Translator } from "../i18n/index.js";

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

/**
 * A refused account operation. `message` is the English sentence (occ, logs); a page shows the
 * same sentence in its reader's language with `translated`.
 */
export class AccountError extends Error {
  readonly phrase: Phrase;

  constructor(
    readonly code: AccountErrorCode,
    readonly text: AccountErrorText,
    readonly values: MessageValues = {},
  ) {
    const phrase: Phrase = { key: `accountErrors:${text}`, values };
    super(inEnglish(phrase));
    this.name = "AccountError";
    this.phrase = phrase;
  }

  translated(translator: Translator): string {
    return say(translator, this.phrase);
  }
}
