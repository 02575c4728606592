// A live table's page (issue 22): when the table changes (a classmate's move, a seat taken), fetch
// this page again and put its changing part in place, without a reload. The server tells us over
// Socket.IO; where a school's network blocks WebSockets, the page asks for the table's version
// every few seconds instead. The socket carries no move and no secret: only the table's version.
(function () {
  "use strict";
  var POLL_MS = 3000;
  var root = document.getElementById("live-root");
  if (!root) { return; }
  var code = root.getAttribute("data-live-code");
  var versionUrl = root.getAttribute("data-live-version-url");
  var version = Number(root.getAttribute("data-live-version"));
  var status = root.getAttribute("data-live-status");
  var ply = Number(root.getAttribute("data-live-ply"));
  var busy = false;
  var again = false;
  var socket = null;

  function pageUrl() {
    var url = new URL(window.location.href);
    url.searchParams.set("since", String(ply));
    return url.toString();
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live-root");
    if (!fresh) { window.location.reload(); return; }
    if (fresh.getAttribute("data-live-status") !== status) {
      // The lobby became a table (or the game ended): the whole page is another one.
      window.location.reload();
      return;
    }
    var focusedId = document.activeElement && document.activeElement.id;
    root.innerHTML = fresh.innerHTML;
    version = Number(fresh.getAttribute("data-live-version"));
    ply = Number(fresh.getAttribute("data-live-ply"));
    root.setAttribute("data-live-version", String(version));
    root.setAttribute("data-live-ply", String(ply));
    if (focusedId) {
      var back = document.getElementById(focusedId);
      if (back) { back.focus(); }
    }
    // Screen readers hear what just happened: the new log lines and whose turn it is.
    var said = [];
    Array.prototype.forEach.call(root.querySelectorAll(".fresh__item"), function (item) {
      said.push(item.textContent.trim());
    });
    var announce = document.getElementById("live-announce");
    if (announce) {
      said.push(announce.textContent.trim());
      announce.textContent = "";
      window.setTimeout(function () { announce.textContent = said.join(" "); }, 50);
    }
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(pageUrl(), { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(swap)
      .catch(function () { /* the next notice or poll tries again */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  function heard(newVersion) {
    if (typeof newVersion === "number" && newVersion > version) { refresh(); }
  }

  function poll() {
    if (socket && socket.connected) { return; }
    fetch(versionUrl, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) { heard(data.version); } })
      .catch(function () {});
  }

  if (typeof window.io === "function") {
    socket = window.io({ transports: ["websocket"], reconnectionDelayMax: 5000 });
    socket.on("connect", function () {
      root.setAttribute("data-live-transport", "socket");
      socket.emit("watch", { code: code }, function (reply) {
        if (reply && reply.ok) { heard(reply.version); }
      });
    });
    socket.on("disconnect", function () { root.setAttribute("data-live-transport", "poll"); });
    socket.on("changed", function (message) {
      if (message && message.code === code) { heard(message.version); }
    });
  }
  window.setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { poll(); }
  });
})();
