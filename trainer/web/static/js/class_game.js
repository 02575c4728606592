// A GeoPlunge Live page (issue 23): a student's game, and the teacher's projector (which loads
// class_game_projector.js too). When the game changes, fetch this page's part again
// (?part=live) and put it in place. The server says so over Socket.IO with the game's id and a
// version (the projector hears every change, a student's page only where the game is); a
// student's notice of a question just opened brings that question's part of the page with it,
// the same for the whole class, so the phone shows it without asking (C-W9). Where WebSockets
// are blocked the page long-polls the version instead, as live.js does (both through follow.js).
// The timer counts down on the server's clock; the server judges lateness itself.
(function () {
  "use strict";
  var POLL_MS = 3000;
  var root = document.getElementById("cg-root");
  if (!root) { return; }
  var gameId = Number(root.getAttribute("data-cg-game"));
  var versionUrl = root.getAttribute("data-cg-version-url");
  var version = Number(root.getAttribute("data-cg-version"));
  var timer = null;
  // A form sent is a page on its way: a notice must not swap the page under it.
  var leavingUntil = 0;
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) { leavingUntil = Date.now() + 10000; }
  });
  function leaving() { return Date.now() < leavingUntil; }

  function pageUrl() {
    var url = new URL(window.location.href);
    url.searchParams.set("part", "live");
    return url.toString();
  }

  // What the student had typed or ticked, kept across a swap of the same question (a new clue).
  function kept() {
    var out = { question: root.getAttribute("data-cg-question"), text: null, ticked: [] };
    var answer = root.querySelector("#answer");
    if (answer && answer.type === "text") { out.text = answer.value; }
    Array.prototype.forEach.call(root.querySelectorAll('input[name="cards"]:checked'), function (box) {
      out.ticked.push(box.value);
    });
    return out;
  }

  function restore(was) {
    if (was.question !== root.getAttribute("data-cg-question")) { return; }
    var answer = root.querySelector("#answer");
    if (answer && was.text) { answer.value = was.text; }
    was.ticked.forEach(function (value) {
      var box = root.querySelector('input[name="cards"][value="' + value + '"]');
      if (box) { box.checked = true; }
    });
  }

  function swap(html) {
    if (leaving()) { return; }
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("cg-root");
    if (!fresh) { window.location.reload(); return; }
    // A page fetched before a newer notice put its question in place is older than the page.
    if (Number(fresh.getAttribute("data-cg-version")) < version) { return; }
    var was = kept();
    var focusedId = document.activeElement && document.activeElement.id;
    root.innerHTML = fresh.innerHTML;
    Array.prototype.forEach.call(fresh.attributes, function (attr) {
      root.setAttribute(attr.name, attr.value);
    });
    ["data-cg-left", "data-cg-paused", "data-cg-time-up"].forEach(function (name) {
      if (!fresh.hasAttribute(name)) { root.removeAttribute(name); }
    });
    version = Number(root.getAttribute("data-cg-version"));
    restore(was);
    settle(focusedId);
  }

  // A question just opened, as the notice brought it (C-W9): the same for every student, so the
  // form's CSRF token is this page's own and the clock gets this student's extra time.
  function put(question, newVersion) {
    var body = document.getElementById("cg-body");
    var title = document.getElementById("cg-title");
    if (!body || !title || typeof question.html !== "string") { return false; }
    var before = root.getAttribute("data-cg-phase");
    var focusedId = document.activeElement && document.activeElement.id;
    body.innerHTML = question.html;
    title.textContent = question.title;
    var token = root.getAttribute("data-cg-csrf") || "";
    Array.prototype.forEach.call(body.querySelectorAll('input[name="csrf_token"]'), function (input) {
      if (!input.value) { input.value = token; }
    });
    root.setAttribute("data-cg-version", String(newVersion));
    root.setAttribute("data-cg-phase", "question");
    root.setAttribute("data-cg-question", String(question.number));
    root.removeAttribute("data-cg-paused");
    root.removeAttribute("data-cg-time-up");
    if (typeof question.left === "number") {
      var extra = Number(root.getAttribute("data-cg-extra")) || 0;
      root.setAttribute("data-cg-left", String(question.left + extra));
    } else {
      root.removeAttribute("data-cg-left");
    }
    version = newVersion;
    settle(focusedId);
    // A page that had not shown the last reveal (its fetch was overtaken, or the question was
    // skipped) may show old points: fetch it once, later, so the class does not ask at once.
    if (before === "question") { window.setTimeout(refresh, 500 + Math.random() * 1500); }
    return true;
  }

  function settle(focusedId) {
    if (window.GeoPickMap && window.GeoPickMap.bind) { window.GeoPickMap.bind(root); }
    if (window.GeoAnswer) { window.GeoAnswer.init(); }
    countDown();
    if (focusedId) {
      var back = document.getElementById(focusedId);
      if (back) { back.focus(); }
    }
    var announce = document.getElementById("cg-announce");
    var heading = root.querySelector("h2");
    if (announce && heading) {
      window.setTimeout(function () { announce.textContent = heading.textContent.trim(); }, 50);
    }
    document.dispatchEvent(new CustomEvent("cg:swapped"));
  }

  var refresh = window.GeoFollow.refresher(pageUrl, swap, leaving);

  function heard(newVersion, question) {
    if (typeof newVersion !== "number" || newVersion <= version) { return; }
    if (question && !leaving() && put(question, newVersion)) { return; }
    refresh();
  }

  // The clock: seconds left on the open question, counted from what the server said.
  function countDown() {
    if (timer) { window.clearInterval(timer); timer = null; }
    var left = root.getAttribute("data-cg-left");
    var shown = root.querySelector("[data-cg-timer]");
    if (left === null || !shown || root.hasAttribute("data-cg-paused")) { return; }
    var ends = Date.now() + Number(left);
    function tick() {
      var seconds = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      shown.textContent = String(seconds);
      if (seconds <= 0) {
        window.clearInterval(timer);
        timer = null;
        root.setAttribute("data-cg-time-up", "");
        var form = root.querySelector("#answer-form");
        if (form) {
          Array.prototype.forEach.call(form.querySelectorAll("button, input"), function (control) {
            control.disabled = true;
          });
          var note = document.createElement("p");
          note.className = "notice";
          note.textContent = "Time is up for this question.";
          form.parentNode.insertBefore(note, form);
        }
        document.dispatchEvent(new CustomEvent("cg:time-up"));
      }
    }
    tick();
    timer = window.setInterval(tick, 250);
  }
  countDown();

  // The socket, or without one the long-poll of the version (follow.js).
  var follow = window.GeoFollow.start({
    root: root,
    prefix: "cg",
    versionUrl: versionUrl,
    version: function () { return version; },
    heard: function (newVersion, message) { heard(newVersion, message && message.question); },
    watch: "watch_class_game",
    watchMessage: { game: gameId },
    notice: "class_game_changed",
    matches: function (message) { return message.game === gameId; }
  });
  // A socket that neither connects nor says why (a proxy that closes it at once): ask instead.
  window.setInterval(function () { if (!follow.connected()) { follow.longPoll(); } }, POLL_MS);
  // Back from a phone's sleep or another tab: catch up at once.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !follow.connected()) { follow.longPoll(); }
    if (!document.hidden) { refresh(); }
  });
})();
