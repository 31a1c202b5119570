import type { FastifyInstance, FastifyRequest } from "fastify";
import { PRODUCT } from "../../product.js";
import { ocsVersionOf, sendOcs } from "../ocs.js";
import { pushCapability } from "../push-endpoints.js";
import { capabilitiesRouteSchema } from "../schemas/ocs.js";
import { serverStatus } from "../server-status.js";

/**
 * `GET /ocs/v{1,2}.php/cloud/capabilities`: what this server can do, as ownCloud/Nextcloud
 * clients read it after login. Public, like upstream (clients also ask before they have a token).
 *
 * What is deliberately absent (docs/upstream/desktop-clients.md, ownCloud client §3):
 * - `dav.chunking`: it would move the ownCloud desktop client to `/remote.php/dav/files/<user>/`;
 *   without it the client keeps the one DAV root `/remote.php/webdav/`.
 *
 * `notifications` lists what routes/notifications-api.ts serves of nextcloud/notifications
 * lib/Capabilities.php's `ocs-endpoints` (not `action-web`, `user-status`, `exists`, `test-push`),
 * and `admin-notifications: ["cli"]` (`./occ notification:generate`; no OCS admin endpoint).
 */
export function capabilities(app: FastifyInstance, request: FastifyRequest): Record<string, unknown> {
  return {
    core: {
      pollinterval: 60,
      "webdav-root": "remote.php/webdav",
      status: serverStatus(app),
    },
    // No sharing and no avatars here: the client then does not ask for a profile picture.
    files_sharing: { api_enabled: false, user: { profile_picture: false } },
    // Nextcloud's activity app advertises its API v2 like this (nextcloud/activity lib/Capabilities.php);
    // only what is served: no `previews`.
    activity: { apiv2: ["filters", "filters-api", "rich-strings"] },
    notifications: {
      "ocs-endpoints": ["list", "get", "delete", "delete-all", "icons", "rich-strings"],
      "admin-notifications": ["cli"],
    },
    // Push, built in (routes/push.ts): the desktop client then refreshes on `notify_activity`.
    notify_push: pushCapability(request),
  };
}

export async function ocsCapabilitiesRoutes(app: FastifyInstance): Promise<void> {
  const [major = 0, minor = 0, micro = 0] = PRODUCT.version.split(".").map(Number);
  for (const path of ["/ocs/v1.php/cloud/capabilities", "/ocs/v2.php/cloud/capabilities"]) {
    app.get(path, { schema: capabilitiesRouteSchema }, async (request, reply) => {
      reply.header("cache-control", "no-store");
      return sendOcs(request, reply, ocsVersionOf(request.url), {
        version: { major, minor, micro, string: PRODUCT.versionString, edition: PRODUCT.edition, product: PRODUCT.name },
        capabilities: capabilities(app, request),
      });
    });
  }
}
