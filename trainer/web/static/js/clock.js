// A round clock: counts down the seconds the server said were left. At the bell it reloads the
// page so the server's result shows (data-clock-reload, the match page), or says in words what
// the bell means (data-clock-bell, a game's page: a reload there would lose what is being typed).
// It is a timer, so screen readers do not read each second; the bell's words are announced once.
// Without JavaScript the page shows the time left when it loaded.
(function () {
  "use strict";
  var clocks = document.querySelectorAll("[data-clock-left]");
  Array.prototype.forEach.call(clocks, function (clock) {
    var left = parseFloat(clock.getAttribute("data-clock-left"));
    var ends = performance.now() / 1000 + left;
    var face = clock.querySelector(".clock__time") || clock;
    var shown = "";
    var ring = function () {
      // Polite first, then the words a moment later, so the change is read out once.
      clock.setAttribute("aria-live", "polite");
      clock.classList.add("clock--rung");
      window.setTimeout(function () {
        clock.textContent = clock.getAttribute("data-clock-bell");
      }, 100);
    };
    var tick = function () {
      var now = Math.max(0, Math.ceil(ends - performance.now() / 1000));
      var text = Math.floor(now / 60) + ":" + ("0" + (now % 60)).slice(-2);
      if (text !== shown) { face.textContent = text; shown = text; }
      if (now > 0) {
        window.setTimeout(tick, 250);
      } else if (clock.hasAttribute("data-clock-reload")) {
        window.setTimeout(function () { window.location.reload(); }, 1500);
      } else if (clock.hasAttribute("data-clock-bell")) {
        ring();
      }
    };
    tick();
  });
})();
