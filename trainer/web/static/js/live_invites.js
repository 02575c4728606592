// The "Classmates" page (L-T9): while it is open the student may be invited to a classmate's
// table. It reports in every 15 seconds, and when an invitation arrives (the socket says so, or
// the report's count changes) the page is loaded again to show it.
(function () {
  "use strict";
  var HEARTBEAT_MS = 15000;
  var box = document.getElementById("live-invites");
  if (!box) { return; }
  var hereUrl = box.getAttribute("data-live-here-url");
  var shown = Number(box.getAttribute("data-live-invitations"));

  function typing() {
    // Never reload under a student's fingers: a form field with something typed in it waits.
    var active = document.activeElement;
    return active && (active.tagName === "INPUT" || active.tagName === "SELECT") && active.type !== "hidden";
  }

  function reloadSoon() {
    if (typing()) { window.setTimeout(reloadSoon, 2000); return; }
    window.location.reload();
  }

  function report() {
    fetch(hereUrl, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data && data.invitations > shown) { reloadSoon(); } })
      .catch(function () {});
  }

  if (typeof window.io === "function") {
    var socket = window.io({ transports: ["websocket"], reconnectionDelayMax: 5000 });
    socket.on("invited", reloadSoon);
  }
  window.setInterval(report, HEARTBEAT_MS);
})();
