// Following a live page's changes (issues 22 and 23): the one way the live tables (live.js) and the
// class games (class_game.js) hear that what they show has changed. Over Socket.IO when it
// connects; where a school's network blocks WebSockets (or the socket drops, or a proxy closes it
// without a word), by long-polling the page's version URL: each ask is held by the server until the
// version passes the page's (or 20 s go by), so a change arrives as fast. After a failed ask (wifi
// gone) the next waits a few seconds.
//
//   var follow = window.GeoFollow.start({
//     root: element,                  // gets data-<prefix>-transport="socket" | "poll"
//     prefix: "live",
//     versionUrl: "...",              // answers {"version": n}; with ?after=N&wait=1 it waits
//     version: function () { ... },   // the version the page shows now
//     heard: function (version, message) { ... },  // a version heard (and the notice, if any)
//     watch: "watch", watchMessage: {...},         // the socket's ask to listen, once connected
//     notice: "changed", matches: function (message) { ... }  // the notices that are this page's
//   });
//   follow.connected(); follow.longPoll(); follow.ask(url)
//   var refresh = window.GeoFollow.refresher(pageUrl, swap, leaving);
(function () {
  "use strict";
  var RETRY_MS = 3000;

  function start(options) {
    var root = options.root;
    var attribute = "data-" + options.prefix + "-transport";
    var socket = null;
    var waiting = false;

    function connected() { return Boolean(socket && socket.connected); }

    function ask(url) {
      return fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (data) { options.heard(data.version, null); }
          return Boolean(data);
        });
    }

    function longPoll() {
      if (waiting || connected()) { return; }
      waiting = true;
      root.setAttribute(attribute, "poll");
      var url = new URL(options.versionUrl, window.location.href);
      url.searchParams.set("after", String(options.version()));
      url.searchParams.set("wait", "1");
      ask(url.toString())
        .catch(function () { return false; })
        .then(function (ok) {
          waiting = false;
          window.setTimeout(longPoll, ok ? 0 : RETRY_MS);
        });
    }

    if (typeof window.io === "function") {
      socket = window.io({ transports: ["websocket"], reconnectionDelayMax: 5000 });
      socket.on("connect", function () {
        root.setAttribute(attribute, "socket");
        socket.emit(options.watch, options.watchMessage, function (reply) {
          if (reply && reply.ok) {
            root.setAttribute("data-" + options.prefix + "-watching", "");  // notices come now
            options.heard(reply.version, null);
          }
        });
      });
      socket.on("disconnect", function () { root.removeAttribute("data-" + options.prefix + "-watching"); });
      // Gone, or never there (a proxy that refuses WebSockets): wait by asking instead, at once.
      socket.on("disconnect", longPoll);
      socket.on("connect_error", longPoll);
      socket.io.on("error", longPoll);
      socket.io.on("reconnect_attempt", longPoll);
      socket.on(options.notice, function (message) {
        if (message && options.matches(message)) { options.heard(message.version, message); }
      });
    }
    if (!socket) { longPoll(); }
    return { connected: connected, longPoll: longPoll, ask: ask };
  }

  // The page's changing part fetched again (``url()``) and given to ``swap``; one fetch at a time,
  // and one more after it when a change was heard meanwhile. Not while ``leaving()``: a form sent
  // is a page on its way, which a swap would cancel.
  function refresher(url, swap, leaving) {
    var busy = false;
    var again = false;
    function refresh() {
      if (leaving()) { return; }
      if (busy) { again = true; return; }
      busy = true;
      fetch(url(), { credentials: "same-origin", headers: { "Accept": "text/html" } })
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
    return refresh;
  }

  window.GeoFollow = { start: start, refresher: refresher };
})();
