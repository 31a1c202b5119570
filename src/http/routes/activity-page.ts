import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { findFilter } from "../../activity/domain/filters.js";
import { parseListQuery } from "../../activity/domain/page.js";
import { activityLiveScriptRoute } from "../activity-live-script.js";
import { baseUrl } from "../base-url.js";
import { userTranslator } from "../i18n.js";
import { activityStreamBody } from "../pages/activity.js";
import { headerUser, layout, messagePage, sendPage } from "../pages/layout.js";
import { guarded, SESSION_PAGE } from "../plugins/route-guards.js";
import { PRE_AUTH_PATH, pushWebsocketUrl } from "../push-endpoints.js";

/**
 * The web stream `/index.php/apps/activity/[:filter]`, rendered on the server. Older pages are
 * plain links carrying the API's own paging (`since` = X-Activity-Last-Given, from the same
 * query object as the API's Link header), so the page needs no script.
 */
async function streamPage(request: FastifyRequest, reply: FastifyReply, filter: string): Promise<FastifyReply> {
  const { principal } = request;
  const user = headerUser(principal);
  const translator = userTranslator(request, principal);
  const { t } = translator;
  if (!findFilter(filter)) {
    const page = messagePage(translator, t("pages:message.notFound"), t("pages:activity.noSuchFilter", { filter }), user);
    return sendPage(reply, page, 404);
  }
  const { activity } = request.server.services;
  const raw = { ...(request.query as Record<string, unknown>) };
  delete raw.format;
  const query = parseListQuery(filter, raw);
  const base = baseUrl(request);
  const result = await activity.list(principal.user.uid, query, base, translator.language);
  const filters = activity.filters();
  if (!result.ok) {
    if (result.error.code === "foreign_since")
      return sendPage(reply, messagePage(translator, t("pages:message.forbidden"), t("pages:activity.notYours"), user), 403);
    const notice = t("pages:activity.noTypes");
    const context = { baseUrl: base, displayName: () => undefined };
    const body = activityStreamBody({
      translator,
      filters,
      current: filter,
      entries: [],
      context,
      nowSeconds: request.server.services.clock.nowSeconds(),
      olderUrl: undefined,
      notice,
    });
    return sendPage(reply, layout({ translator, title: t("pages:activity.title"), user, current: "activity", body }));
  }
  const page = result.value;
  // The newest entries of a stream (no paging or sort asked for) update themselves from push.
  const pageUrl = `/index.php/apps/activity/${encodeURIComponent(filter)}`;
  const live =
    Object.keys(raw).length === 0 ? { websocket: pushWebsocketUrl(request), preAuth: PRE_AUTH_PATH, pageUrl } : undefined;
  const olderUrl = page.nextQuery ? `/index.php/apps/activity/${encodeURIComponent(filter)}?${page.nextQuery}` : undefined;
  return sendPage(
    reply,
    layout({
      translator,
      title: t("pages:activity.title"),
      user,
      current: "activity",
      body: activityStreamBody({
        translator,
        filters,
        current: filter,
        entries: activity.entries(page),
        context: page.context,
        nowSeconds: request.server.services.clock.nowSeconds(),
        olderUrl,
        live,
      }),
    }),
  );
}

const ICON_COLOURS: Record<string, string> = {
  activity: "#0082c9",
  user: "#1d2d3e",
  contacts: "#5f6b77",
  change: "#0082c9",
  "add-color": "#46ba61",
  "delete-color": "#e9322d",
  history: "#8a6d3b",
  share: "#0082c9",
  download: "#46ba61",
  security: "#d08a00",
};

export async function activityPageRoutes(app: FastifyInstance): Promise<void> {
  app.get("/index.php/apps/activity", (_request, reply) => reply.redirect("/index.php/apps/activity/", 303));
  await app.register(
    guarded(SESSION_PAGE, (pages) => {
      pages.get("/index.php/apps/activity/", (request, reply) => streamPage(request, reply, "all"));
      pages.get("/index.php/apps/activity/:filter", (request, reply) =>
        streamPage(request, reply, (request.params as { filter: string }).filter),
      );
    }),
  );

  activityLiveScriptRoute(app);

  // Icons named by the API's `icon` field and the filter list: small same-origin SVGs.
  app.get("/index.php/apps/activity/img/:file", async (request, reply) => {
    const match = /^([a-z-]+)\.svg$/.exec((request.params as { file: string }).file);
    const colour = match?.[1] ? ICON_COLOURS[match[1]] : undefined;
    if (!colour) return reply.status(404).send({ error: "not_found", error_description: "No such icon." });
    return reply
      .header("content-type", "image/svg+xml")
      .header("cache-control", "public, max-age=86400")
      .header("x-content-type-options", "nosniff")
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="${colour}"/></svg>`,
      );
  });
}
