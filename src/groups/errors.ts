import type { groups } from "../i18n/catalogues/en/groups.js";
import { inEnglish, type MessageValues, type Phrase, say, type Translator } from "../i18n/index.js";

export type GroupErrorCode =
  | "invalid_gid"
  | "group_exists"
  | "no_such_group"
  | "admin_undeletable"
  | "group_in_use"
  | "last_admin"
  | "unknown_groups";

/** Which sentence says what was refused (the `groups` catalogue). */
type GroupErrorText = keyof typeof groups;

/** A refused group operation: `message` in English (occ, logs), `translated` for a page. */
export class GroupError extends Error {
  readonly phrase: Phrase;

  constructor(
    readonly code: GroupErrorCode,
    readonly text: GroupErrorText,
    readonly values: MessageValues = {},
  ) {
    const phrase: Phrase = { key: `groups:${text}`, values };
    super(inEnglish(phrase));
    this.name = "GroupError";
    this.phrase = phrase;
  }

  translated(translator: Translator): string {
    return say(translator, this.phrase);
  }
}
