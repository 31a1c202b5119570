import type { FastifyRequest } from "fastify";
import type { Principal } from "../accounts/authentication.js";
import { chooseLanguage, type Translator, translatorFor } from "../i18n/index.js";

/**
 * The translator for whoever made this request: their own language setting when the route knows
 * the user (pass it), else Accept-Language, else the `default_language` host setting
 * (src/i18n/negotiation.ts holds the rule).
 */
export function requestTranslator(
  request: FastifyRequest,
  userLanguage?: string | null,
  userTimeZone?: string | null,
): Translator {
  const accept = request.headers["accept-language"];
  return translatorFor(
    chooseLanguage({
      userSetting: userLanguage,
      acceptLanguage: Array.isArray(accept) ? accept.join(",") : accept,
      serverDefault: request.server.services.settings.get("default_language"),
    }),
    userTimeZone,
  );
}

/** The translator of a page a logged-in user reads: their own language and time zone first. */
export function userTranslator(request: FastifyRequest, principal: Principal): Translator {
  return requestTranslator(request, principal.user.language, principal.user.timeZone);
}
