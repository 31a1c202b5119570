import i18next, { type i18n } from "i18next";
import { CATALOGUES, type Namespace, type SourceCatalogue } from "./catalogues/index.js";
import { type Language, SOURCE_LANGUAGE, SUPPORTED_LANGUAGES } from "./languages.js";

type WithoutPluralSuffix<K extends string> = K extends `${infer Base}_${"zero" | "one" | "two" | "few" | "many" | "other"}`
  ? Base
  : K;

/** `namespace:key`, checked against the English catalogue at compile time. */
export type MessageKey = {
  [N in Namespace]: `${N}:${WithoutPluralSuffix<keyof SourceCatalogue[N] & string>}`;
}[Namespace];

/** Placeholder values; `count` also selects the plural form. */
export type MessageValues = Readonly<Record<string, string | number>>;

export interface Translator {
  readonly language: Language;
  t(key: MessageKey, values?: MessageValues): string;
}

function createI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources: CATALOGUES,
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    ns: Object.keys(CATALOGUES.en),
    // Keys are flat ("layout.logOut"): dots are part of the key, the colon names the namespace.
    keySeparator: false,
    nsSeparator: ":",
    // Pages escape every value when they interpolate the translated text (src/http/html.ts); the
    // API's prepared texts are plain text. Escaping here would escape twice.
    interpolation: { escapeValue: false },
    returnNull: false,
    initImmediate: false,
  });
  return instance;
}

const shared = createI18n();

const translators = new Map<Language, Translator>(
  SUPPORTED_LANGUAGES.map((language) => {
    // Keys are checked by MessageKey above; i18next's own key typing is for its resource augmentation.
    const fixed = shared.getFixedT(language) as unknown as (key: string, values?: MessageValues) => string;
    return [language, { language, t: (key: MessageKey, values?: MessageValues) => fixed(key, values) }];
  }),
);

/** The translator for a language; one per language, made once (translation is on hot paths). */
export function translatorFor(language: Language): Translator {
  return translators.get(language) as Translator;
}
