import { type MessageKey, type MessageValues, type Translator, translatorFor } from "./translator.js";

/**
 * A sentence named by its catalogue key and values, said later in the language of whoever reads
 * it: the domain decides *what* was refused, a page says it in its reader's language and occ and
 * the logs in English (every error a person reads is translated).
 */
export interface Phrase {
  readonly key: MessageKey;
  readonly values?: MessageValues;
}

export function say(translator: Translator, phrase: Phrase): string {
  return translator.t(phrase.key, phrase.values);
}

/** The English sentence: what occ prints and the logs record. */
export function inEnglish(phrase: Phrase): string {
  return say(translatorFor("en"), phrase);
}
