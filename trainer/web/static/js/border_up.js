// Border-Up: the computer's race (race.js), and cards that click into group 1, group 2 or out again.
(function () {
  "use strict";
  window.geoplungeRace({ called: "The computer has called GeoPlunge! Call yours to see who wins." });
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
