// The GeoPlunge Live projector (issue 23): class_game.js keeps the page up to date; this adds the
// teacher's keys (N or the right arrow: the main button, "Start", "Reveal", "Next"; P: pause or
// go on), and says "Time is up" on the screen when the time of a student without extra time ran out.
(function () {
  "use strict";
  var root = document.getElementById("cg-root");
  if (!root) { return; }
  var MAIN = ["start", "reveal", "standings", "next"];

  function press(action) {
    var button = root.querySelector('[data-cg-action="' + action + '"]');
    if (button) { button.click(); return true; }
    return false;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    if (event.key === "n" || event.key === "N" || event.key === "ArrowRight") {
      for (var i = 0; i < MAIN.length; i += 1) {
        if (press(MAIN[i])) { event.preventDefault(); return; }
      }
    } else if (event.key === "p" || event.key === "P") {
      if (press("pause") || press("resume")) { event.preventDefault(); }
    }
  });

  document.addEventListener("cg:time-up", function () {
    var shown = root.querySelector(".cg-timer");
    if (shown) { shown.textContent = "Time is up: reveal the answer when you are ready."; }
  });
})();
