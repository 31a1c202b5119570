/**
 * Another language's catalogue for a namespace must have exactly the English keys: a missing or
 * extra key is a type error (and test/i18n/catalogues.test.ts says which, per language).
 * Placeholders are i18next's `{{name}}`; plural keys carry CLDR suffixes (`_one`, `_other`, and
 * `_many` where a language has it), chosen by i18next through Intl.PluralRules.
 */
export type Messages<Source> = { readonly [K in keyof Source]: string };
