import type { FastifyInstance } from "fastify";
import { plainText } from "../../activity/domain/prepared-text.js";
import { baseUrl } from "../base-url.js";
import { userTranslator } from "../i18n.js";
import { ocsVersionOf, sendOcs } from "../ocs.js";
import { apiRead, guarded } from "../plugins/route-guards.js";
import { legacyListRouteSchema } from "../schemas/activity.js";

const DEFAULT_COUNT = 30;
const MAX_COUNT = 200;

function nonNegativeInt(value: unknown, fallback: number): number {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return fallback;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : fallback;
}

/**
 * The legacy list (API v1, docs/upstream/nextcloud-activity.md §10; what the ownCloud desktop
 * client's activity tab calls, docs/upstream/desktop-clients.md §4 of the ownCloud client):
 * `GET /ocs/v{1,2}.php/cloud/activity` with `start`/`count` or `page`/`pagesize` (page counted
 * from 0), newest first, filter `all`, items `{id, subject, message, file, link, date}`.
 * Offset paging is kept here for these old clients only; API v2 pages by keyset.
 */
export async function activityLegacyRoutes(app: FastifyInstance): Promise<void> {
  await app.register(guarded(apiRead("activity:read"), legacyListRoutes));
}

async function legacyListRoutes(reads: FastifyInstance): Promise<void> {
  for (const path of ["/ocs/v1.php/cloud/activity", "/ocs/v2.php/cloud/activity"]) {
    reads.get(path, { schema: legacyListRouteSchema }, async (request, reply) => {
      const { principal } = request;
      const q = request.query as Record<string, unknown>;
      const byPage = q.page !== undefined || q.pagesize !== undefined;
      const count = Math.min(MAX_COUNT, Math.max(1, nonNegativeInt(byPage ? q.pagesize : q.count, DEFAULT_COUNT)));
      const start = byPage ? nonNegativeInt(q.page, 0) * count : nonNegativeInt(q.start, 0);
      const base = baseUrl(request);
      const { language } = userTranslator(request, principal);
      const { entries, context } = await reads.services.activity.legacyList(principal.user.uid, start, count, base, language);
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
