import type { Language } from "../languages.js";
import { activity as deActivity } from "./de/activity.js";
import { pages as dePages } from "./de/pages.js";
import { settings as deSettings } from "./de/settings.js";
import { activity as enActivity } from "./en/activity.js";
import { pages as enPages } from "./en/pages.js";
import { settings as enSettings } from "./en/settings.js";
import { activity as esActivity } from "./es/activity.js";
import { pages as esPages } from "./es/pages.js";
import { settings as esSettings } from "./es/settings.js";
import { activity as frActivity } from "./fr/activity.js";
import { pages as frPages } from "./fr/pages.js";
import { settings as frSettings } from "./fr/settings.js";
import { activity as itActivity } from "./it/activity.js";
import { pages as itPages } from "./it/pages.js";
import { settings as itSettings } from "./it/settings.js";
import { activity as nlActivity } from "./nl/activity.js";
import { pages as nlPages } from "./nl/pages.js";
import { settings as nlSettings } from "./nl/settings.js";

/**
 * Every catalogue, by language and namespace. A namespace is one file per language
 * (`catalogues/<language>/<namespace>.ts`); to add one, write the English file, the five others,
 * and list them here.
 */
export const CATALOGUES = {
  en: { pages: enPages, activity: enActivity, settings: enSettings },
  de: { pages: dePages, activity: deActivity, settings: deSettings },
  fr: { pages: frPages, activity: frActivity, settings: frSettings },
  es: { pages: esPages, activity: esActivity, settings: esSettings },
  it: { pages: itPages, activity: itActivity, settings: itSettings },
  nl: { pages: nlPages, activity: nlActivity, settings: nlSettings },
} as const satisfies Record<Language, Record<string, Record<string, string>>>;

export type SourceCatalogue = (typeof CATALOGUES)["en"];
export type Namespace = keyof SourceCatalogue;
