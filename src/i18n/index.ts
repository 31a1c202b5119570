export { type DateFormatter, dateFormatterFor } from "./dates.js";
export { LANGUAGE_NAMES, type Language, SUPPORTED_LANGUAGES, supportedLanguage } from "./languages.js";
export { chooseLanguage, type LanguageSources } from "./negotiation.js";
export { inEnglish, type Phrase, say } from "./phrase.js";
export { type MessageKey, type MessageValues, type Translator, translatorFor } from "./translator.js";
