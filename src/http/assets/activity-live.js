// The activity page's live updates, wired by data attributes: src/http/activity-live-script.ts.
"use strict";
(() => {
  var live = document.getElementById("activity-live");
  if (!live || !window.WebSocket || !window.fetch || !window.DOMParser) return;
  var status = document.getElementById("activity-live-status");
  var stopped = document.getElementById("activity-live-stopped");
  var fetching = false;
  var again = false;
  var leaving = false;
  window.addEventListener("pagehide", () => {
    leaving = true;
  });
  function merge(page) {
    var fetchedList = page.getElementById("activity-stream");
    var list = document.getElementById("activity-stream");
    if (!fetchedList) return 0;
    if (!list) {
      const empty = document.getElementById("activity-empty");
      if (!empty) return 0;
      empty.replaceWith(document.importNode(fetchedList, true));
      return fetchedList.children.length;
    }
    var shown = {};
    for (let i = 0; i < list.children.length; i++) shown[list.children[i].getAttribute("data-activity-id")] = list.children[i];
    var added = 0;
    Array.prototype.forEach.call(fetchedList.children, (item, index) => {
      var id = item.getAttribute("data-activity-id");
      var node = shown[id];
      if (node) delete shown[id];
      else {
        node = document.importNode(item, true);
        added++;
      }
      if (list.children[index] !== node) list.insertBefore(node, list.children[index] || null);
    });
    Object.keys(shown).forEach((id) => {
      list.removeChild(shown[id]);
    });
    var older = document.getElementById("activity-older");
    var fetchedOlder = page.getElementById("activity-older");
    if (older && fetchedOlder) older.setAttribute("href", fetchedOlder.getAttribute("href"));
    return added;
  }
  function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    fetch(window.location.pathname, { credentials: "same-origin", headers: { accept: "text/html" } })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then((text) => {
        var page = new DOMParser().parseFromString(text, "text/html");
        var added = merge(page);
        if (added > 0 && status) {
          status.textContent = "";
          status.textContent = live.getAttribute("data-added");
        }
      })
      .catch(() => {})
      .then(() => {
        fetching = false;
        if (again) {
          again = false;
          refresh();
        }
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
    .then((response) => {
      if (!response.ok) throw new Error(String(response.status));
      return response.text();
    })
    .then((token) => {
      var socket = new WebSocket(live.getAttribute("data-websocket"));
      socket.addEventListener("open", () => {
        socket.send("");
        socket.send(token);
      });
      socket.addEventListener("message", (event) => {
        if (event.data === "authenticated") live.setAttribute("data-state", "open");
        else if (event.data === "notify_activity") refresh();
      });
      socket.addEventListener("close", stop);
    })
    .catch(stop);
})();
