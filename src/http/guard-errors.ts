import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../accounts/authentication.js";
import { userTranslator } from "./i18n.js";
import { headerUser, messagePage, sendPage } from "./pages/layout.js";

/**
 * The refusals of the route guards (plugins/route-guards.ts) that are not a login redirect or an
 * authentication challenge (those stay with the authentication chain, plugins/authentication.ts).
 */

/**
 * A state-changing JSON API call made with a browser session that did not prove it comes from
 * Keystream's own pages: 403, naming the two ways to prove it.
 */
export function sendCsrfRefusal(reply: FastifyReply): FastifyReply {
  return reply.status(403).send({ error: "csrf", error_description: "Send the requesttoken header (or OCS-APIRequest: true)." });
}

/** A form post whose CSRF token is missing or not the session's: the "form expired" page, 403. */
export function sendFormExpired(request: FastifyRequest, reply: FastifyReply, principal: Principal): FastifyReply {
  const translator = userTranslator(request, principal);
  const { t } = translator;
  return sendPage(reply, messagePage(translator, t("pages:message.requestNotValid"), t("pages:message.formExpired")), 403);
}

/** The "administrators only" refusal, for pages and forms alike. */
export function sendAdminsOnly(request: FastifyRequest, reply: FastifyReply, principal: Principal): FastifyReply {
  const translator = userTranslator(request, principal);
  const { t } = translator;
  return sendPage(
    reply,
    messagePage(translator, t("pages:message.forbidden"), t("pages:message.adminsOnly"), headerUser(principal)),
    403,
  );
}
