// Border-Up: the computer's race, and cards that click into group 1, group 2 or out again.
(function () {
  "use strict";
  var race = document.getElementById("race");
  if (race) {
    var started = performance.now() / 1000 - parseFloat(race.getAttribute("data-elapsed"));
    var callAt = parseFloat(race.getAttribute("data-call"));
    var status = document.getElementById("race-status");
    var tick = function () {
      if (performance.now() / 1000 - started >= callAt) {
        status.textContent = "The computer has called GeoPlunge! Call yours to see who wins.";
      } else {
        window.setTimeout(tick, 250);
      }
    };
    tick();
  }
  var cards = document.querySelectorAll(".bu__card");
  Array.prototype.forEach.call(cards, function (card) {
    var select = card.querySelector(".bu__select");
    var show = function () { card.setAttribute("data-group", select.value); };
    select.addEventListener("change", show);
    card.addEventListener("click", function (event) {
      if (event.target === select || event.target.tagName === "OPTION") return;
      event.preventDefault();
      select.value = { "": "1", "1": "2", "2": "" }[select.value];
      show();
    });
  });
})();
