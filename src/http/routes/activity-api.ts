import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { withPreviews } from "../../activity/domain/element.js";
import { findFilter } from "../../activity/domain/filters.js";
import { isNotModified, parseListQuery } from "../../activity/domain/page.js";
import type { StreamPage } from "../../activity/list-activities.js";
import { sendActivityError, sendActivityOcs, sendActivityStream } from "../activity-errors.js";
import { baseUrl } from "../base-url.js";
import { userTranslator } from "../i18n.js";
import { apiRead, apiUser, guarded, type RouteGuard } from "../plugins/route-guards.js";
import { filteredStreamRouteSchema, filtersRouteSchema, streamRouteSchema } from "../schemas/activity.js";

/** Both homes of API v2: the /index.php path and the OCS path clients call (docs/upstream/nextcloud-activity.md §1.1). */
const PREFIXES = ["/index.php/apps/activity", "/ocs/v2.php/apps/activity"] as const;

function streamHeaders(reply: FastifyReply, page: StreamPage, linkBase: string): void {
  reply.header("etag", page.etag);
  if (page.firstKnown !== undefined) reply.header("x-activity-first-known", String(page.firstKnown));
  if (page.lastGiven !== undefined) reply.header("x-activity-last-given", String(page.lastGiven));
  if (page.nextQuery !== undefined) {
    reply.header("link", `<${linkBase}/api/v2/activity/${encodeURIComponent(page.query.filter)}?${page.nextQuery}>; rel="next"`);
  }
}

/** The stream's filter: the `:filter` of the path, `all` on the path without one. */
function filterOf(request: FastifyRequest): string {
  return (request.params as { filter?: string }).filter ?? "all";
}

const identifyReader = apiUser({ anonymousStatus: 403 });

/**
 * The stream's guard: an unknown filter is 404 before the user is looked at, then any API
 * credential, nobody being 403 (Nextcloud's activity app, docs/upstream/nextcloud-activity.md §1.5).
 */
const STREAM_READ: RouteGuard = {
  name: "api read",
  identify: async (request, reply) => {
    const filter = filterOf(request);
    if (findFilter(filter)) return identifyReader(request, reply);
    sendActivityError(request, reply, { code: "unknown_filter", filter });
    return undefined;
  },
  checks: [],
  scope: "activity:read",
};

async function stream(request: FastifyRequest, reply: FastifyReply, prefix: string): Promise<FastifyReply> {
  const { activity } = request.server.services;
  const { principal } = request;
  const query = parseListQuery(filterOf(request), request.query as Record<string, unknown>);
  const base = baseUrl(request);
  // Rendered in the reader's language: their own setting, else Accept-Language.
  const { language } = userTranslator(request, principal);
  const result = await activity.list(principal.user.uid, query, base, language);
  if (!result.ok) return sendActivityError(request, reply, result.error);
  const page = result.value;
  streamHeaders(reply, page, `${base}${prefix}`);
  const ifNoneMatch = request.headers["if-none-match"];
  if (isNotModified(page.groups.length, page.etag, ifNoneMatch)) return reply.status(304).send();
  // previews=true (the Nextcloud client's request) adds `previews: []` to each element.
  const elements = () => activity.entries(page).map((e) => (query.previews ? withPreviews(e.element) : e.element));
  return sendActivityStream(request, reply, {
    value: elements,
    json: (envelope) => activity.answerJson(page, envelope, query.previews),
  });
}

/** `GET …/api/v2/activity[/:filter]` and `GET …/api/v2/activity/filters` (docs/upstream/nextcloud-activity.md §1.1). */
export async function activityApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    guarded(STREAM_READ, (streams) => {
      for (const prefix of PREFIXES) {
        streams.get(`${prefix}/api/v2/activity`, { schema: streamRouteSchema }, (request, reply) =>
          stream(request, reply, prefix),
        );
        streams.get(`${prefix}/api/v2/activity/:filter`, { schema: filteredStreamRouteSchema }, (request, reply) =>
          stream(request, reply, prefix),
        );
      }
    }),
  );
  await app.register(
    guarded(apiRead("activity:read", { anonymousStatus: 403 }), (reads) => {
      for (const prefix of PREFIXES) {
        reads.get(`${prefix}/api/v2/activity/filters`, { schema: filtersRouteSchema }, async (request, reply) => {
          const base = baseUrl(request);
          const filters = app.services.activity
            .filters()
            .map((f) => ({ id: f.id, name: f.name, icon: `${base}${f.icon}`, priority: f.priority }));
          return sendActivityOcs(request, reply, filters);
        });
      }
    }),
  );
}
