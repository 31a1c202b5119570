import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { listEtag, matchesIfNoneMatch, renderNotification } from "../../notifications/domain/render.js";
import { ACCOUNT_SCOPE } from "../../oauth/domain/scope.js";
import { baseUrl } from "../base-url.js";
import { userTranslator } from "../i18n.js";
import { ocsVersionOf, sendOcs } from "../ocs.js";
import { apiRead, apiWrite, guarded } from "../plugins/route-guards.js";
import {
  deleteAllNotificationsRouteSchema,
  deleteNotificationRouteSchema,
  getNotificationRouteSchema,
  listNotificationsRouteSchema,
} from "../schemas/notifications.js";

/** Both OCS homes of API v2 (nextcloud/notifications appinfo routes under `/ocs/v{1,2}.php/apps/notifications`). */
const PREFIXES = ["/ocs/v2.php/apps/notifications/api/v2", "/ocs/v1.php/apps/notifications/api/v2"] as const;

/** A notification id of the path: digits (upstream's route requirement `\d+`), 0 is none; else undefined. */
function idOf(request: FastifyRequest): number | undefined {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id === 0 ? undefined : id;
}

function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendOcs(request, reply, ocsVersionOf(request.url), null, 404, "Not Found");
}

/**
 * Nextcloud's notifications API v2 (nextcloud/notifications lib/Controller/EndpointController.php,
 * docs/ocs-endpoint-v2.md), read by the desktop and mobile clients: the list with its ETag, one
 * notification, dismissing one or all. The account scope, like the other OCS routes of the
 * account (docs/security.md "Scopes"); texts in the reader's language, rendered when read.
 */
export async function notificationsApiRoutes(app: FastifyInstance): Promise<void> {
  const { notifications } = app.services;

  await app.register(
    guarded(apiRead(ACCOUNT_SCOPE), (reads) => {
      for (const prefix of PREFIXES) {
        reads.get(`${prefix}/notifications`, { schema: listNotificationsRouteSchema }, async (request, reply) => {
          const { principal } = request;
          const translator = userTranslator(request, principal);
          const list = await notifications.newest(principal.user.uid);
          const etag = listEtag(
            list.map((n) => n.id),
            translator.language,
          );
          reply.header("cache-control", "no-store").header("etag", etag);
          if (matchesIfNoneMatch(etag, request.headers["if-none-match"])) return reply.status(304).send();
          const base = baseUrl(request);
          return sendOcs(
            request,
            reply,
            ocsVersionOf(request.url),
            list.map((n) => renderNotification(n, translator, base)),
          );
        });
        reads.get(`${prefix}/notifications/:id`, { schema: getNotificationRouteSchema }, async (request, reply) => {
          const { principal } = request;
          const id = idOf(request);
          const found = id === undefined ? undefined : await notifications.find(principal.user.uid, id);
          if (!found) return sendNotFound(request, reply);
          reply.header("cache-control", "no-store");
          return sendOcs(
            request,
            reply,
            ocsVersionOf(request.url),
            renderNotification(found, userTranslator(request, principal), baseUrl(request)),
          );
        });
      }
    }),
  );

  // A session's call proves its origin (apiWrite: requesttoken or OCS-APIREQUEST); a client's app
  // password or token is no cookie a browser sends on its own.
  await app.register(
    guarded(apiWrite(ACCOUNT_SCOPE), (writes) => {
      for (const prefix of PREFIXES) {
        writes.delete(`${prefix}/notifications/:id`, { schema: deleteNotificationRouteSchema }, async (request, reply) => {
          const id = idOf(request);
          if (id === undefined) return sendNotFound(request, reply);
          // As upstream: 200 whether or not the user had it (dismissed on another device already).
          await notifications.dismiss(request.principal.user.uid, id);
          return sendOcs(request, reply, ocsVersionOf(request.url), []);
        });
        writes.delete(`${prefix}/notifications`, { schema: deleteAllNotificationsRouteSchema }, async (request, reply) => {
          await notifications.dismissAll(request.principal.user.uid);
          return sendOcs(request, reply, ocsVersionOf(request.url), []);
        });
      }
    }),
  );
}
