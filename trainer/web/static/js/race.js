// A race against the computer (Dashing States, Border-Up): the line under the page's title says
// how far the computer has got, from the seconds the server gave (data-elapsed, data-call and, for
// Dashing States, data-cards), until it calls GeoPlunge!. Each page's own script starts it with
// its words; the server alone decides who won.
(function () {
  "use strict";
  // words.progress(done) is the line while the computer plays (optional: without it the page's
  // own line stays); words.called is the line once it has called.
  window.geoplungeRace = function (words) {
    var race = document.getElementById("race");
    if (!race) return;
    var started = performance.now() / 1000 - parseFloat(race.getAttribute("data-elapsed"));
    var steps = (race.getAttribute("data-cards") || "").split(",").filter(Boolean).map(parseFloat);
    var callAt = parseFloat(race.getAttribute("data-call"));
    var status = document.getElementById("race-status");
    var shown = "";
    var tick = function () {
      var now = performance.now() / 1000 - started;
      var done = steps.filter(function (t) { return t <= now; }).length;
      var text = now >= callAt ? words.called : (words.progress ? words.progress(done) : "");
      if (text && text !== shown) { status.textContent = text; shown = text; }
      if (now < callAt) window.setTimeout(tick, 250);
    };
    tick();
  };
})();
