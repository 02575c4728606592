// The teacher's round page and a match's page (P-K10): the games the students play on their own
// devices change while the page is open. Every few seconds, ask for that part of the page and put it in place when its
// version changed (the result of a game ends up in the match by itself). No reload: a result being
// typed in a form below keeps what was typed.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var part = document.getElementById("tournament-live");
  if (!part) { return; }
  var url = part.getAttribute("data-tlive-url");
  var busy = false;

  function ask() {
    if (busy || document.hidden) { return; }
    busy = true;
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
          window.location.reload();
          return;
        }
        part.innerHTML = fresh.innerHTML;
        part.setAttribute("data-tlive-version", fresh.getAttribute("data-tlive-version"));
      })
      .catch(function () { /* the next ask tries again */ })
      .then(function () { busy = false; });
  }

  window.setInterval(ask, POLL_MS);
}());
