import type { FastifyInstance } from "fastify";
import { plainText } from "../../activity/domain/prepared-text.js";
import { baseUrl } from "../base-url.js";
import { userTranslator } from "../i18n.js";
import { ocsVersionOf, sendOcs } from "../ocs.js";
import { requireUser } from "../plugins/authentication.js";
import { legacyListRouteSchema } from "../schemas/activity.js";

const DEFAULT_COUNT = 30;
const MAX_COUNT = 200;

function nonNegativeInt(value: unknown, fallback: number): number {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return fallback;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : fallback;
}

/**
 * The legacy list (API v1, research §10; owncloud-desktop-client.md §8 #13):
 * `GET /ocs/v{1,2}.php/cloud/activity` with `start`/`count` or `page`/`pagesize` (page counted
 * from 0), newest first, filter `all`, items `{id, subject, message, file, link, date}`.
 * Offset paging is kept here for these old clients only; API v2 pages by keyset.
 */
export async function activityLegacyRoutes(app: FastifyInstance): Promise<void> {
  for (const path of ["/ocs/v1.php/cloud/activity", "/ocs/v2.php/cloud/activity"]) {
    app.get(path, { schema: legacyListRouteSchema }, async (request, reply) => {
      const principal = await requireUser(request, reply);
      if (!principal) return;
      const q = request.query as Record<string, unknown>;
      const byPage = q.page !== undefined || q.pagesize !== undefined;
      const count = Math.min(MAX_COUNT, Math.max(1, nonNegativeInt(byPage ? q.pagesize : q.count, DEFAULT_COUNT)));
      const start = byPage ? nonNegativeInt(q.page, 0) * count : nonNegativeInt(q.start, 0);
      const base = baseUrl(request);
      const { language } = userTranslator(request, principal);
      const { entries, context } = await app.services.activity.legacyList(principal.user.uid, start, count, base, language);
      const items = entries.map(({ element, subject, message }) => ({
        id: element.activity_id,
        subject: plainText(subject, context),
        message: plainText(message, context),
        file: element.object_name,
        link: element.link,
        date: element.datetime,
      }));
      return sendOcs(request, reply, ocsVersionOf(request.url), items);
    });
  }
}
