// A live table's page (issue 22): when the table changes (a classmate's move, a seat taken), fetch
// this page again and put its changing part in place, without a reload. The server tells us over
// Socket.IO; where a school's network blocks WebSockets, the page asks for the table's version
// instead, and the server holds each ask until the table changes (long-polling), so the move
// arrives as fast. The socket carries no move and no secret: only the table's version.
(function () {
  "use strict";
  var POLL_MS = 3000;
  // While the socket is up, the page still reports in every 15 s: a student not heard from for a
  // minute is away, and the computer may play for them (L-T7).
  var HEARTBEAT_MS = 15000;
  var lastPoll = 0;
  var standInTimer = null;
  var root = document.getElementById("live-root");
  if (!root) { return; }
  var code = root.getAttribute("data-live-code");
  var versionUrl = root.getAttribute("data-live-version-url");
  var version = Number(root.getAttribute("data-live-version"));
  var status = root.getAttribute("data-live-status");
  var ply = Number(root.getAttribute("data-live-ply"));
  // From the moment this page sends a form (a move, a message) it is on its way to the next page:
  // a notice of its own move must not reload it then, which would cancel the form's answer.
  var leavingUntil = 0;
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) { leavingUntil = Date.now() + 10000; }
  });
  function leaving() { return Date.now() < leavingUntil; }

  // The page's own part only (?part=live): the server renders no header, menu or footer for it.
  function pageUrl() {
    var url = new URL(window.location.href);
    url.searchParams.set("since", String(ply));
    url.searchParams.set("part", "live");
    return url.toString();
  }

  function swap(html) {
    if (leaving()) { return; }
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live-root");
    if (!fresh) { window.location.reload(); return; }
    if (fresh.getAttribute("data-live-status") !== status) {
      // The lobby became a table (or the game ended): the whole page is another one.
      window.location.reload();
      return;
    }
    var focusedId = document.activeElement && document.activeElement.id;
    var heardBefore = {};
    Array.prototype.forEach.call(root.querySelectorAll(".live-cheers__said li"), function (item) {
      heardBefore[item.textContent.trim()] = true;
    });
    root.innerHTML = fresh.innerHTML;
    version = Number(fresh.getAttribute("data-live-version"));
    ply = Number(fresh.getAttribute("data-live-ply"));
    // The root's own attributes (version, ply, when the computer may stand in) come across too.
    ["data-live-version", "data-live-ply", "data-live-stand-in-at", "data-live-stand-in-url",
      "data-live-now", "data-live-refresh-at"].forEach(
      function (name) {
        var value = fresh.getAttribute(name);
        if (value === null) { root.removeAttribute(name); } else { root.setAttribute(name, value); }
      }
    );
    scheduleStandIn();
    scheduleRefresh();
    if (focusedId) {
      var back = document.getElementById(focusedId);
      if (back) { back.focus(); }
    }
    // Screen readers hear what just happened: the new log lines and whose turn it is.
    var said = [];
    Array.prototype.forEach.call(root.querySelectorAll(".live-cheers__said li"), function (item) {
      var text = item.textContent.trim();
      if (!heardBefore[text]) { said.push(text); }
    });
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

  var refresh = window.GeoFollow.refresher(pageUrl, swap, leaving);

  function heard(newVersion) {
    if (typeof newVersion === "number" && newVersion > version) { refresh(); }
  }

  // The socket, or without one an ask held by the server until the table changes (or 20 s went
  // by), which also tells the table this student is still here (follow.js).
  var follow = null;

  // With a socket: report in every 15 s (the socket itself says nothing about the student).
  function poll() {
    if (!follow.connected()) { follow.longPoll(); return; }
    var now = Date.now();
    if (now - lastPoll < HEARTBEAT_MS) { return; }
    lastPoll = now;
    follow.ask(versionUrl).catch(function () {});
  }

  // When the student to move is away or out of time, ask the computer to play for them.
  function scheduleStandIn() {
    if (standInTimer) { window.clearTimeout(standInTimer); standInTimer = null; }
    var at = Number(root.getAttribute("data-live-stand-in-at"));
    var serverNow = Number(root.getAttribute("data-live-now"));
    var url = root.getAttribute("data-live-stand-in-url");
    var csrf = document.getElementById("live-csrf");
    if (!at || !serverNow || !url || !csrf) { return; }
    // Counted on the server's clock (the page says what time it was there when it was made), and
    // never sooner than 3 s after the page: a refused ask is not repeated in a loop.
    var wait = Math.max(3000, at - serverNow) + Math.floor(Math.random() * 1000);
    standInTimer = window.setTimeout(function () {
      var body = new URLSearchParams();
      body.set("csrf_token", csrf.value);
      body.set("version", String(version));
      fetch(url, { method: "POST", credentials: "same-origin", body: body })
        .catch(function () {})
        .then(function () { refresh(); });
    }, wait);
  }
  scheduleStandIn();

  // At a duel whose classmate has gone quiet, fetch the page again when the student may end it
  // (L-T12): the page then offers "... left: end the game". Counted on the server's clock.
  var refreshTimer = null;
  function scheduleRefresh() {
    if (refreshTimer) { window.clearTimeout(refreshTimer); refreshTimer = null; }
    var at = Number(root.getAttribute("data-live-refresh-at"));
    var serverNow = Number(root.getAttribute("data-live-now"));
    if (!at || !serverNow) { return; }
    var wait = Math.max(3000, at - serverNow) + Math.floor(Math.random() * 1000);
    refreshTimer = window.setTimeout(refresh, wait);
  }
  scheduleRefresh();

  follow = window.GeoFollow.start({
    root: root,
    prefix: "live",
    versionUrl: versionUrl,
    version: function () { return version; },
    heard: heard,
    watch: "watch",
    watchMessage: { code: code },
    notice: "changed",
    matches: function (message) { return message.code === code; }
  });
  window.setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { poll(); }
  });
})();
