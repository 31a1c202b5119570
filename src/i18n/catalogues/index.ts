import type { Language } from "../languages.js";
import { pages as dePages } from "./de/pages.js";
import { pages as enPages } from "./en/pages.js";
import { pages as esPages } from "./es/pages.js";
import { pages as frPages } from "./fr/pages.js";
import { pages as itPages } from "./it/pages.js";
import { pages as nlPages } from "./nl/pages.js";

/**
 * Every catalogue, by language and namespace. A namespace is one file per language
 * (`catalogues/<language>/<namespace>.ts`); to add one, write the English file, the five others,
 * and list them here.
 */
export const CATALOGUES = {
  en: { pages: enPages },
  de: { pages: dePages },
  fr: { pages: frPages },
  es: { pages: esPages },
  it: { pages: itPages },
  nl: { pages: nlPages },
} as const satisfies Record<Language, Record<string, Record<string, string>>>;

export type SourceCatalogue = (typeof CATALOGUES)["en"];
export type Namespace = keyof SourceCatalogue;
