// A study pick map that names no state: Tab enters it once, the arrow keys (and Home, Page Up,
// End, Page Down for the diagonals, as on a number pad) move to the neighbouring state in that
// direction, and a live region says where the move went without naming any state.
// answer.js chooses the focused state on Enter or Space.
(function () {
  "use strict";
  var KEYS = {
    ArrowUp: "north",
    ArrowDown: "south",
    ArrowLeft: "west",
    ArrowRight: "east",
    Home: "north-west",
    PageUp: "north-east",
    End: "south-west",
    PageDown: "south-east"
  };
  var live = document.getElementById("pick-live");
  Array.prototype.forEach.call(document.querySelectorAll("[data-pick-map]"), function (map) {
    var spots = {};
    Array.prototype.forEach.call(map.querySelectorAll("[data-spot]"), function (path) {
      spots[path.getAttribute("data-spot")] = path;
    });

    function say(text) {
      if (!live) return;
      // Emptied first, so the same words said twice are announced twice.
      live.textContent = "";
      window.setTimeout(function () { live.textContent = text; }, 50);
    }

    map.addEventListener("keydown", function (event) {
      var direction = KEYS[event.key];
      var here = event.target;
      if (!direction || !here.hasAttribute || !here.hasAttribute("data-spot")) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      var there = spots[here.getAttribute("data-" + direction)];
      if (!there) {
        say("No state to the " + direction + ".");
        return;
      }
      here.setAttribute("tabindex", "-1");
      there.setAttribute("tabindex", "0");
      there.focus();
      say("Moved " + direction + ". " + there.getAttribute("aria-label"));
    });

    // A click (or a tap) moves the roving stop too, so Tab comes back to the last state chosen.
    map.addEventListener("focusin", function (event) {
      var path = event.target;
      if (!path.hasAttribute || !path.hasAttribute("data-spot")) return;
      Array.prototype.forEach.call(map.querySelectorAll('[data-spot][tabindex="0"]'), function (other) {
        if (other !== path) other.setAttribute("tabindex", "-1");
      });
      path.setAttribute("tabindex", "0");
    });
  });
})();
