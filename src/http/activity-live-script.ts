import type { FastifyInstance } from "fastify";
import { assetSource, hashedAsset, serveHashedAssets } from "./hashed-assets.js";

/**
 * The activity page's live updates (src/http/assets/activity-live.js), a file of its own because
 * the pages' CSP is `script-src 'self'` (no inline script). Wired by `#activity-live`'s data attributes (http/pages/activity.ts):
 * - a pre-auth token from `data-pre-auth` (POST, the session's cookie, `OCS-APIRequest: true` as
 *   the API's CSRF proof), then the websocket `data-websocket` with an empty user name and the
 *   token (nextcloud/notify_push's pre-auth, docs/clients.md "Push");
 * - on `notify_activity`, the page itself is fetched again and the list made the fetched one's:
 *   entries already shown stay (the same nodes, so focus stays where it was), new ones are put in
 *   where the server placed them, entries that left the page (a group that grew) are taken out,
 *   and the "older" link follows the new page's paging. The server renders every entry, as on a
 *   reload; `#activity-live-status` (a polite live region) says that entries were added;
 * - when the socket closes, `#activity-live-stopped` (a reload link) is shown: no polling.
 */
const ACTIVITY_LIVE_SCRIPT_DIR = "/index.php/apps/activity/js";
const ACTIVITY_LIVE_SCRIPT = hashedAsset(ACTIVITY_LIVE_SCRIPT_DIR, "live", "js", assetSource("activity-live.js"));

export const ACTIVITY_LIVE_SCRIPT_PATH = ACTIVITY_LIVE_SCRIPT.path;

export function activityLiveScriptRoute(app: FastifyInstance): void {
  serveHashedAssets(app, ACTIVITY_LIVE_SCRIPT_DIR, [ACTIVITY_LIVE_SCRIPT]);
}
