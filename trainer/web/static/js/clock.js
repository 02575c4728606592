// A round clock: counts down the seconds the server said were left, and reloads the page at the
// bell so the server's result shows. Without JavaScript the page shows the time left when it loaded.
(function () {
  "use strict";
  var clocks = document.querySelectorAll("[data-clock-left]");
  Array.prototype.forEach.call(clocks, function (clock) {
    var left = parseFloat(clock.getAttribute("data-clock-left"));
    var ends = performance.now() / 1000 + left;
    var face = clock.querySelector(".clock__time") || clock;
    var shown = "";
    var tick = function () {
      var now = Math.max(0, Math.ceil(ends - performance.now() / 1000));
      var text = Math.floor(now / 60) + ":" + ("0" + (now % 60)).slice(-2);
      if (text !== shown) { face.textContent = text; shown = text; }
      if (now > 0) {
        window.setTimeout(tick, 250);
      } else if (clock.hasAttribute("data-clock-reload")) {
        window.setTimeout(function () { window.location.reload(); }, 1500);
      }
    };
    tick();
  });
})();
