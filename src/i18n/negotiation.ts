import Negotiator from "negotiator";
import { type Language, SOURCE_LANGUAGE, SUPPORTED_LANGUAGES, supportedLanguage } from "./languages.js";

export interface LanguageSources {
  /** The user's own setting (`./occ user:setting <uid> core lang de`, or the personal page). */
  userSetting?: string | null | undefined;
  /** The request's Accept-Language header. */
  acceptLanguage?: string | undefined;
  /** The `default_language` host setting ("" when unset). */
  serverDefault?: string | undefined;
}

/**
 * The one rule for which language a person reads: their own setting, else the
 * browser's Accept-Language (RFC 9110 §12.5.4, q-values honoured; `de-CH` matches `de`), else
 * the server default, else English.
 */
export function chooseLanguage(sources: LanguageSources): Language {
  const own = supportedLanguage(sources.userSetting);
  if (own) return own;
  if (sources.acceptLanguage) {
    const preferred = new Negotiator({ headers: { "accept-language": sources.acceptLanguage } }).languages();
    for (const code of preferred) {
      const language = supportedLanguage(code);
      if (language) return language;
    }
  }
  return supportedLanguage(sources.serverDefault) ?? SOURCE_LANGUAGE;
}

export { SUPPORTED_LANGUAGES };
