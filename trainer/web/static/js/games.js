// The card-game table: show what the computer players just did one move at a time,
// so a student can follow them. Everything is already in the page; this only paces it.
(function () {
  "use strict";
  var list = document.querySelector(".fresh__list");
  if (!list) { return; }
  var items = Array.prototype.slice.call(list.children);
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (items.length < 2 || reduced) { return; }
  var button = document.getElementById("fresh-all");
  var shown = 1;
  var timer = null;
  items.forEach(function (item, i) { if (i > 0) { item.hidden = true; } });
  function showAll() {
    items.forEach(function (item) { item.hidden = false; });
    if (timer) { window.clearInterval(timer); }
    if (button) { button.hidden = true; }
  }
  if (button) {
    button.hidden = false;
    button.addEventListener("click", showAll);
  }
  timer = window.setInterval(function () {
    if (shown >= items.length) { showAll(); return; }
    items[shown].hidden = false;
    shown += 1;
    if (shown >= items.length) { showAll(); }
  }, 900);
})();
