import type { FastifyReply, FastifyRequest } from "fastify";
import type { AccountRefusal } from "../accounts/errors.js";
import { say } from "../i18n/index.js";
import { answerInSection, formField } from "./console/page.js";
import type { SettingsPageName } from "./console/settings-sections.js";
import { userTranslator } from "./i18n.js";
import { ocsVersionOf, sendOcs } from "./ocs.js";
import { refusalStatus } from "./refusals.js";

/**
 * Where a settings form shows a refused account change: its section of the settings page, in the
 * `route.config.accountRefusal` of the form's route.
 */
export interface AccountRefusalPlace {
  page: SettingsPageName;
  sectionId: string;
  /** The id of the error paragraph, when the page's tests and scripts look for it. */
  elementId?: string;
  /** Form fields sent back into the form (never a password), to correct rather than retype. */
  refill?: readonly string[];
}

declare module "fastify" {
  interface FastifyContextConfig {
    accountRefusal?: AccountRefusalPlace;
  }
}

/**
 * The one answer to a refused account operation (src/accounts/errors.ts) in a route:
 * - on a settings form (a route with `config.accountRefusal`): the settings page again, the
 *   refusal in the reader's language in the form's section, with its status (src/http/refusals.ts:
 *   404 for an unknown user, else 400);
 * - on the API: the same status, as an OCS envelope under `/ocs/` and as
 *   `{"error", "error_description"}` JSON elsewhere, with the English sentence.
 */
export async function sendAccountRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: AccountRefusal,
): Promise<FastifyReply> {
  const status = refusalStatus(refusal);
  const place = request.routeOptions.config.accountRefusal;
  if (place) {
    const principal = request.principal;
    const text = say(userTranslator(request, principal), refusal.phrase);
    const formValues = place.refill && Object.fromEntries(place.refill.map((name) => [name, formField(request, name)]));
    const { page, sectionId, elementId: id } = place;
    return answerInSection(request, reply, principal, { page, sectionId, ok: false, text, id, formValues, status });
  }
  if (request.url.startsWith("/ocs/")) return sendOcs(request, reply, ocsVersionOf(request.url), [], status, refusal.message);
  return reply.status(status).send({ error: refusal.code, error_description: refusal.message });
}
