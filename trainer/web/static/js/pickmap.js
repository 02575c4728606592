// Pick maps (a study "Find X" question, State IQ's map): the map is one Tab stop, the arrow keys
// (and Home, Page Up, End, Page Down for the diagonals, as on a number pad) move to the
// neighbouring state in that direction, and a live region says where the move went. A "Find X"
// map names no state: its moves are in the page as spot numbers and its live region says only the
// part of the map. A named map (State IQ) carries each state's centre and borders, the moves are
// found here the same way as trainer.cards.geometry.compass_neighbours, and typing letters jumps
// to the next state whose name starts with them. The round targets of the small states click
// their state. answer.js chooses the focused state on Enter or Space.
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
  // Degrees from east, counter-clockwise (map y grows southwards).
  var ANGLES = {
    north: 90, "north-east": 45, east: 0, "south-east": -45,
    south: -90, "south-west": -135, west: 180, "north-west": 135
  };
  var CONE_HALF_ANGLE = 45;
  var MAX_JUMP = 300;
  var TYPE_PAUSE_MS = 900;

  // The state to move to from ``here`` towards ``angle``: a bordering state first, then the
  // nearest, distance counted longer the further off the direction's axis; ties to the smaller key.
  function towards(here, angle, centres, near) {
    var x0 = centres[here][0], y0 = centres[here][1];
    var best = null;
    Object.keys(centres).forEach(function (there) {
      var dx = centres[there][0] - x0, dy = y0 - centres[there][1];
      var distance = Math.sqrt(dx * dx + dy * dy);
      if (there === here || distance === 0) return;
      var off = Math.abs(((((Math.atan2(dy, dx) * 180) / Math.PI - angle + 180) % 360) + 360) % 360 - 180);
      var bordering = near.indexOf(there) >= 0;
      if (off >= CONE_HALF_ANGLE || (!bordering && distance > MAX_JUMP)) return;
      var rank = [bordering ? 0 : 1, distance * (1 + off / CONE_HALF_ANGLE), there];
      if (best === null || rank[0] < best[0] || (rank[0] === best[0] && (rank[1] < best[1] ||
          (rank[1] === best[1] && rank[2] < best[2])))) {
        best = rank;
      }
    });
    return best === null ? null : best[2];
  }

  // A named map's compass moves, written on each state as data-north="CO" and so on.
  function addMoves(states) {
    var centres = {}, borders = {};
    Object.keys(states).forEach(function (key) {
      var path = states[key];
      centres[key] = [parseFloat(path.getAttribute("data-x")), parseFloat(path.getAttribute("data-y"))];
      borders[key] = (path.getAttribute("data-borders") || "").split(" ").filter(Boolean);
    });
    Object.keys(states).forEach(function (key) {
      Object.keys(ANGLES).forEach(function (direction) {
        var there = towards(key, ANGLES[direction], centres, borders[key]);
        if (there !== null) states[key].setAttribute("data-" + direction, there);
      });
    });
  }

  // This script may run again for a map put in place without a reload (study_instant.js): a map
  // already bound is left as it is.
  // A study question shown without a reload (study_instant.js) has its map bound by GeoPickMap.bind.
  function bindAll(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-pick-map]"), bind);
  }
  window.GeoPickMap = { bind: bindAll };
  bindAll(document);

  function bind(map) {
    if (map.geoPickBound) return;
    map.geoPickBound = true;
    if (map.hasAttribute("data-pick-bound")) return;
    map.setAttribute("data-pick-bound", "");
    var named = map.hasAttribute("data-named");
    var attribute = named ? "data-postal" : "data-spot";
    var live = document.getElementById(map.getAttribute("data-live") || "pick-live");
    var states = {};
    var order = [];
    Array.prototype.forEach.call(map.querySelectorAll("[" + attribute + "]"), function (path) {
      states[path.getAttribute(attribute)] = path;
      order.push(path);
    });
    var targets = {};
    Array.prototype.forEach.call(map.querySelectorAll("[data-for]"), function (target) {
      targets[target.getAttribute("data-for")] = target;
    });
    if (named) addMoves(states);

    function say(text) {
      if (!live) return;
      // Emptied first, so the same words said twice are announced twice.
      live.textContent = "";
      window.setTimeout(function () { live.textContent = text; }, 50);
    }

    function moveTo(here, there) {
      if (here) here.setAttribute("tabindex", "-1");
      there.setAttribute("tabindex", "0");
      there.focus();
    }

    // Typing letters (a named map only): the next state after the focused one whose name starts
    // with what was typed in the last moment; the same letter again goes on to the next such state.
    var typed = "";
    var typedAt = 0;
    function jump(here, letter) {
      var now = Date.now();
      typed = now - typedAt > TYPE_PAUSE_MS ? letter : typed + letter;
      typedAt = now;
      var repeat = typed.length > 1 && typed.split("").every(function (c) { return c === letter; });
      var prefix = repeat ? letter : typed;
      var byName = order.slice().sort(function (a, b) {
        return a.getAttribute("aria-label").localeCompare(b.getAttribute("aria-label"));
      });
      var at = byName.indexOf(here);
      // A longer prefix may still fit the state already focused; one letter moves on from it.
      var from = prefix.length > 1 ? at : at + 1;
      for (var i = 0; i < byName.length; i++) {
        var there = byName[(from + i + byName.length) % byName.length];
        if (there.getAttribute("aria-label").toLowerCase().indexOf(prefix) === 0) {
          if (there !== here) moveTo(here, there);
          say(there.getAttribute("aria-label") + ".");
          return;
        }
      }
      say("No state starts with " + typed.toUpperCase() + ".");
    }

    map.addEventListener("keydown", function (event) {
      var here = event.target;
      if (!here.hasAttribute || !here.hasAttribute(attribute)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var direction = KEYS[event.key];
      if (!direction) {
        if (named && /^[a-z]$/i.test(event.key)) {
          event.preventDefault();
          jump(here, event.key.toLowerCase());
        }
        return;
      }
      event.preventDefault();
      var there = states[here.getAttribute("data-" + direction)];
      if (!there) {
        say("No state to the " + direction + ".");
        return;
      }
      moveTo(here, there);
      say("Moved " + direction + ". " + there.getAttribute("aria-label"));
    });

    // A click (or a tap) moves the roving stop too, so Tab comes back to the last state chosen;
    // the focused state's round target (if it has one) is lit with it.
    map.addEventListener("focusin", function (event) {
      var path = event.target;
      if (!path.hasAttribute || !path.hasAttribute(attribute)) return;
      Array.prototype.forEach.call(map.querySelectorAll("[" + attribute + '][tabindex="0"]'), function (other) {
        if (other !== path) other.setAttribute("tabindex", "-1");
      });
      path.setAttribute("tabindex", "0");
      var target = targets[path.getAttribute(attribute)];
      if (target) target.classList.add("pick-target--on");
    });
    map.addEventListener("focusout", function (event) {
      var path = event.target;
      var target = path.getAttribute && targets[path.getAttribute(attribute)];
      if (target) target.classList.remove("pick-target--on");
    });

    // A small state's round target is a second place to click it.
    Object.keys(targets).forEach(function (key) {
      var target = targets[key], path = states[key];
      if (!path) return;
      target.addEventListener("click", function () {
        path.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
      });
      target.addEventListener("pointerenter", function () { path.classList.add("map-state--hot"); });
      target.addEventListener("pointerleave", function () { path.classList.remove("map-state--hot"); });
      path.addEventListener("pointerenter", function () { target.classList.add("pick-target--on"); });
      path.addEventListener("pointerleave", function () {
        if (document.activeElement !== path) target.classList.remove("pick-target--on");
      });
    });

    // On a phone the map is wider than the screen: show its middle first (State IQ's once opened).
    var frame = map.parentNode;
    function centre() {
      if (frame.scrollWidth > frame.clientWidth) {
        frame.scrollLeft = Math.round((frame.scrollWidth - frame.clientWidth) / 2);
      }
    }
    centre();
    var details = map.closest ? map.closest("details") : null;
    if (details) details.addEventListener("toggle", centre);
  }
})();
