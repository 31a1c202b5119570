/**
 * The languages Keystream's catalogues are written in. English is the source language:
 * its catalogue defines every key, and the others must have the same keys (enforced by the type
 * `Messages<…>` in each catalogue and by test/i18n/catalogues.test.ts).
 */
export const SUPPORTED_LANGUAGES = ["en", "de", "fr", "es", "it", "nl"] as const;

export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const SOURCE_LANGUAGE: Language = "en";

/** Display names in each language's own words, for the language selector. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  it: "Italiano",
  nl: "Nederlands",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * A stored or configured code (ownCloud stores `de`, `de_DE`, `de-DE`…) to one of ours, or
 * undefined when we have no catalogue for it: `de_AT` → `de`.
 */
export function supportedLanguage(code: string | null | undefined): Language | undefined {
  if (!code) return undefined;
  const primary = code.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : undefined;
}
