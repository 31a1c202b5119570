import type { FastifyReply, FastifyRequest } from "fastify";
import { sendActivityOcs } from "./activity-errors.js";
import { requestTranslator } from "./i18n.js";
import { noStore } from "./oauth-errors.js";
import { sendOcs } from "./ocs.js";
import { messagePage, sendPage } from "./pages/layout.js";

/** What a client is told to wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 10;
/** … and while maintenance mode is on (an upgrade: minutes, not seconds). */
const MAINTENANCE_RETRY_AFTER_SECONDS = 120;

const DESCRIPTION = "The service is temporarily unavailable; try again later.";
const MAINTENANCE_DESCRIPTION = "Keystream is in maintenance mode.";

/** Why the service cannot answer: its database is away, or an administrator turned maintenance mode on. */
export type Unavailability = "database" | "maintenance";

/**
 * The answer while the database is unavailable (storage/driver/availability.ts) or maintenance mode is on:
 * 503 with Retry-After (RFC 9110 §15.6.4), in the error form of the route's family: RFC 6749 JSON
 * `temporarily_unavailable` on the OAuth API (as its throttle's 429), the OCS envelope on the OCS and
 * activity APIs, an HTML page for a browser (what Nextcloud shows in maintenance mode too), the JSON
 * error form elsewhere. Nothing about a database outage's cause.
 */
export function sendUnavailable(request: FastifyRequest, reply: FastifyReply, why: Unavailability = "database"): FastifyReply {
  const maintenance = why === "maintenance";
  const description = maintenance ? MAINTENANCE_DESCRIPTION : DESCRIPTION;
  reply.header("retry-after", String(maintenance ? MAINTENANCE_RETRY_AFTER_SECONDS : UNAVAILABLE_RETRY_AFTER_SECONDS));
  const path = request.url.split("?", 1)[0] ?? "";
  if (path.startsWith("/index.php/apps/oauth2/api/")) {
    return noStore(reply).status(503).send({ error: "temporarily_unavailable", error_description: description });
  }
  if (path.includes("/apps/activity/api/")) return sendActivityOcs(request, reply, [], 503);
  if (path.startsWith("/ocs/")) return sendOcs(request, reply, 2, [], 503, description);
  if ((request.headers.accept ?? "").includes("text/html")) {
    const translator = requestTranslator(request);
    const { t } = translator;
    const page = maintenance
      ? messagePage(translator, t("pages:message.maintenance"), t("pages:message.maintenanceText"))
      : messagePage(translator, t("pages:message.unavailable"), t("pages:message.unavailableText"), undefined, request.id);
    return sendPage(reply, page, 503);
  }
  return reply
    .status(503)
    .header("cache-control", "no-store")
    .send({ error: maintenance ? "maintenance" : "temporarily_unavailable", error_description: description });
}
