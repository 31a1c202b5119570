import type { FastifyRequest } from "fastify";
import { baseUrl } from "./base-url.js";

/**
 * Where push is served (nextcloud/notify_push's protocol, docs/clients.md): the paths routes/push.ts
 * serves, and the URLs the capability and the activity page give clients.
 */

/** The websocket's path (the capability advertises it: pushCapability). */
export const PUSH_WEBSOCKET_PATH = "/push/ws";
/** nextcloud/notify_push `appinfo/routes.php` `PreAuth#preAuth`, under the app's prefix. */
export const PRE_AUTH_PATH = "/index.php/apps/notify_push/pre_auth";

/** The websocket's URL for this request's base URL (ws:// under http, wss:// under https). */
export function pushWebsocketUrl(request: FastifyRequest): string {
  return `${baseUrl(request).replace(/^http/, "ws")}${PUSH_WEBSOCKET_PATH}`;
}

/**
 * The `notify_push` capability (nextcloud/notify_push `lib/Capabilities.php`): what is pushed and
 * where: files, activities and notifications (the desktop client stops polling the activity and
 * notifications APIs only when both are listed: nextcloud/desktop src/gui/tray/usermodel.cpp).
 */
export function pushCapability(request: FastifyRequest): Record<string, unknown> {
  const base = baseUrl(request);
  return {
    type: ["files", "activities", "notifications"],
    endpoints: { websocket: pushWebsocketUrl(request), pre_auth: `${base}${PRE_AUTH_PATH}` },
  };
}
