import type { FastifyRequest } from "fastify";
import type { Principal } from "../accounts/authentication.js";
import { chooseLanguage, type Translator, translatorFor } from "../i18n/index.js";

/**
 * OIDC Core §3.1.2.1 `ui_locales` (space-separated BCP 47 tags, preferred first) of an
 * authorization request: on the authorization endpoint's own URL, or on the URL the login page
 * returns to. As an Accept-Language list, or undefined when there is none.
 */
function uiLocalesOf(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  let locales = typeof query?.ui_locales === "string" ? query.ui_locales : undefined;
  if (locales === undefined && typeof query?.redirect_url === "string") {
    try {
      locales = new URL(query.redirect_url, "http://keystream.invalid").searchParams.get("ui_locales") ?? undefined;
    } catch {
      locales = undefined;
    }
  }
  const tags = (locales ?? "").split(" ").filter((tag) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag));
  return tags.length === 0 ? undefined : tags.join(",");
}

/**
 * The translator for whoever made this request: their own language setting when the route knows
 * the user (pass it), else the `ui_locales` an application asked its pages in, else
 * Accept-Language, else the `default_language` host setting (src/i18n/negotiation.ts holds the rule).
 */
export function requestTranslator(
  request: FastifyRequest,
  userLanguage?: string | null,
  userTimeZone?: string | null,
): Translator {
  const accept = request.headers["accept-language"];
  const browser = Array.isArray(accept) ? accept.join(",") : accept;
  const asked = uiLocalesOf(request);
  return translatorFor(
    chooseLanguage({
      userSetting: userLanguage,
      acceptLanguage: asked === undefined ? browser : [asked, browser].filter((part) => part !== undefined).join(","),
      serverDefault: request.server.services.settings.get("default_language"),
    }),
    userTimeZone,
  );
}

/** The translator of a page a logged-in user reads: their own language and time zone first. */
export function userTranslator(request: FastifyRequest, principal: Principal): Translator {
  return requestTranslator(request, principal.user.language, principal.user.timeZone);
}
