// The teacher's round page, the projector and a match's page (P-K10): the games the students play
// on their own devices change while the page is open. The server says so over Socket.IO (a notice
// naming the tournament and the match, nothing else); the page then asks for that part of itself
// and puts it in place when its version changed (the result of a game ends up in the match by
// itself). Where the socket is down (a school's network may block WebSockets), the page asks every
// 5 seconds instead; while it is up, every 30 seconds all the same, in case a notice was lost.
// Notices that come close together (moves at a table) make one ask every 2 seconds at most.
// No reload on the round page: a result being typed in a form below keeps what was typed.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var SAFETY_MS = 30000;
  var GAP_MS = 2000;
  // A match page that sends a form (a team taking its seat) is leaving: reloading it now would
  // cancel that navigation.
  var LEAVING_MS = 10000;
  var part = document.getElementById("tournament-live");
  if (!part) { return; }
  var url = part.getAttribute("data-tlive-url");
  var tournament = Number(part.getAttribute("data-tlive-tournament"));
  var match = part.hasAttribute("data-tlive-match") ? Number(part.getAttribute("data-tlive-match")) : null;
  var busy = false;
  var again = false;
  var connected = false;
  var lastAsk = Date.now();
  var soonTimer = null;
  var leftAt = 0;

  function leaving() { leftAt = Date.now(); }
  document.addEventListener("submit", leaving);
  window.addEventListener("beforeunload", leaving);

  part.setAttribute("data-tlive-transport", "poll");

  function ask() {
    if (document.hidden) { return; }
    if (busy) { again = true; return; }
    busy = true;
    again = false;
    lastAsk = Date.now();
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("tournament-live");
        if (!fresh || fresh.getAttribute("data-tlive-version") === part.getAttribute("data-tlive-version")) {
          return;
        }
        if (part.hasAttribute("data-tlive-reload")) {
          // The match page: its forms name the game due, so the whole page is another one.
          if (Date.now() - leftAt < LEAVING_MS) { return; }
          window.location.reload();
          return;
        }
        part.innerHTML = fresh.innerHTML;
        part.setAttribute("data-tlive-version", fresh.getAttribute("data-tlive-version"));
      })
      .catch(function () { /* the next ask tries again */ })
      .then(function () {
        busy = false;
        if (again) { ask(); }
      });
  }

  function soon() {
    if (soonTimer) { return; }
    soonTimer = window.setTimeout(function () {
      soonTimer = null;
      ask();
    }, Math.max(0, lastAsk + GAP_MS - Date.now()));
  }

  function tick() {
    if (connected && Date.now() - lastAsk < SAFETY_MS) { return; }
    ask();
  }

  if (typeof window.io === "function" && tournament) {
    var socket = window.io({ transports: ["websocket"], reconnectionDelayMax: 5000 });
    var watch = match === null ? { tournament: tournament } : { tournament: tournament, match: match };
    socket.on("connect", function () {
      socket.emit("watch_tournament", watch, function (reply) {
        if (!reply || !reply.ok) { return; }
        connected = true;
        part.setAttribute("data-tlive-transport", "socket");
        // Catch up with what changed while the socket was down.
        if (reply.version !== part.getAttribute("data-tlive-version")) { ask(); }
      });
    });
    socket.on("disconnect", function () {
      connected = false;
      part.setAttribute("data-tlive-transport", "poll");
    });
    socket.on("tournament_changed", function (notice) {
      if (!notice || notice.tournament !== tournament) { return; }
      if (match !== null && notice.match !== match) { return; }
      soon();
    });
  }
  window.setInterval(tick, POLL_MS);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { ask(); }
  });
}());
