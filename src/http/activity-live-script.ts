import type { FastifyInstance } from "fastify";

export const ACTIVITY_LIVE_SCRIPT_PATH = "/index.php/apps/activity/js/live.js";

/**
 * The activity page's live updates, a file of its own because the pages' CSP is `script-src 'self'`
 * (no inline script). Wired by `#activity-live`'s data attributes (http/pages/activity.ts):
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
const ACTIVITY_LIVE_SCRIPT = `"use strict";
(function () {
  var live = document.getElementById("activity-live");
  if (!live || !window.WebSocket || !window.fetch || !window.DOMParser) return;
  var status = document.getElementById("activity-live-status");
  var stopped = document.getElementById("activity-live-stopped");
  var fetching = false;
  var again = false;
  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  function merge(page) {
    var fetchedList = page.getElementById("activity-stream");
    var list = document.getElementById("activity-stream");
    if (!fetchedList) return 0;
    if (!list) {
      var empty = document.getElementById("activity-empty");
      if (!empty) return 0;
      empty.replaceWith(document.importNode(fetchedList, true));
      return fetchedList.children.length;
    }
    var shown = {};
    for (var i = 0; i < list.children.length; i++) shown[list.children[i].getAttribute("data-activity-id")] = list.children[i];
    var added = 0;
    Array.prototype.forEach.call(fetchedList.children, function (item, index) {
      var id = item.getAttribute("data-activity-id");
      var node = shown[id];
      if (node) delete shown[id];
      else { node = document.importNode(item, true); added++; }
      if (list.children[index] !== node) list.insertBefore(node, list.children[index] || null);
    });
    Object.keys(shown).forEach(function (id) { list.removeChild(shown[id]); });
    var older = document.getElementById("activity-older");
    var fetchedOlder = page.getElementById("activity-older");
    if (older && fetchedOlder) older.setAttribute("href", fetchedOlder.getAttribute("href"));
    return added;
  }
  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(window.location.pathname, { credentials: "same-origin", headers: { accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (text) {
        var page = new DOMParser().parseFromString(text, "text/html");
        var added = merge(page);
        if (added > 0 && status) {
          status.textContent = "";
          status.textContent = live.getAttribute("data-added");
        }
      })
      .catch(function () {})
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }
  function stop() {
    if (!leaving && stopped) stopped.hidden = false;
  }
  fetch(live.getAttribute("data-pre-auth"), {
    method: "POST",
    credentials: "same-origin",
    headers: { "OCS-APIRequest": "true" },
  })
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    })
    .then(function (token) {
      var socket = new WebSocket(live.getAttribute("data-websocket"));
      socket.addEventListener("open", function () {
        socket.send("");
        socket.send(token);
      });
      socket.addEventListener("message", function (event) {
        if (event.data === "authenticated") live.setAttribute("data-state", "open");
        else if (event.data === "notify_activity") refresh();
      });
      socket.addEventListener("close", stop);
    })
    .catch(stop);
})();
`;

export function activityLiveScriptRoute(app: FastifyInstance): void {
  app.get(ACTIVITY_LIVE_SCRIPT_PATH, async (_request, reply) =>
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "public, max-age=3600")
      .send(ACTIVITY_LIVE_SCRIPT),
  );
}
