import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AccountError } from "../accounts/errors.js";
import { answerInSection, formField } from "./console/page.js";
import type { SettingsPageName } from "./console/settings-sections.js";
import { userTranslator } from "./i18n.js";
import { ocsVersionOf, sendOcs } from "./ocs.js";

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

type ErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * The one place an AccountError becomes HTTP. The accounts domain throws it (src/accounts/errors.ts);
 * routes let it through, and this error handler, wrapped around `fallback` (the handler of every
 * other error), answers it:
 * - on a settings form (a route with `config.accountRefusal`): the settings page again, the
 *   refusal in the reader's language in the form's section, 404 for an unknown user, else 400;
 * - on the API: the same status, as an OCS envelope under `/ocs/` and as
 *   `{"error", "error_description"}` JSON elsewhere, with the English sentence.
 * Anything that fails while the refusal is made goes to `fallback`, as the route's own failure would.
 */
export function withAccountErrors(fallback: ErrorHandler) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    if (!(error instanceof AccountError)) return fallback(error, request, reply);
    return sendAccountError(request, reply, error).catch((failure: FastifyError) => fallback(failure, request, reply));
  };
}

/** 404 when the user named does not exist, 400 for every other refused input. */
export function accountErrorStatus(error: AccountError): 400 | 404 {
  return error.code === "no_such_user" ? 404 : 400;
}

async function sendAccountError(request: FastifyRequest, reply: FastifyReply, error: AccountError): Promise<FastifyReply> {
  const status = accountErrorStatus(error);
  const place = request.routeOptions.config.accountRefusal;
  if (place) {
    const principal = request.principal;
    const text = error.translated(userTranslator(request, principal));
    const formValues = place.refill && Object.fromEntries(place.refill.map((name) => [name, formField(request, name)]));
    const { page, sectionId, elementId: id } = place;
    return answerInSection(request, reply, principal, { page, sectionId, ok: false, text, id, formValues, status });
  }
  if (request.url.startsWith("/ocs/")) return sendOcs(request, reply, ocsVersionOf(request.url), [], status, error.message);
  return reply.status(status).send({ error: error.code, error_description: error.message });
}
