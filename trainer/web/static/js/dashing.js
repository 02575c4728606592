// Dashing States: the computer's progress in a race (race.js), and putting cards in order (places, drag and drop).
(function () {
  "use strict";
  window.geoplungeRace({
    progress: function (done) { return "The computer has found " + done + " of 5 states."; },
    called: "The computer has called GeoPlunge! Finish and call yours to see the result."
  });

  var list = document.getElementById("ds-cards");
  if (!list) return;
  var cards = Array.prototype.slice.call(list.querySelectorAll(".ds__card"));
  var placeOf = function (card) { return card.querySelector(".ds__place"); };
  var rank = function (card) { var v = placeOf(card).value; return v === "aside" ? 5 : parseInt(v, 10); };

  function resort() {
    cards.slice().sort(function (a, b) { return rank(a) - rank(b); }).forEach(function (card) { list.appendChild(card); });
  }

  // Choosing a place another card holds swaps the two, so every place stays taken once.
  cards.forEach(function (card) {
    var select = placeOf(card);
    select.setAttribute("data-was", select.value);
    select.addEventListener("change", function () {
      var wanted = select.value;
      cards.forEach(function (other) {
        var otherSelect = placeOf(other);
        if (other !== card && otherSelect.value === wanted) {
          otherSelect.value = select.getAttribute("data-was");
          otherSelect.setAttribute("data-was", otherSelect.value);
        }
      });
      select.setAttribute("data-was", wanted);
      resort();
      select.focus();
    });

    card.addEventListener("dragstart", function (event) {
      event.dataTransfer.setData("text/plain", card.getAttribute("data-position"));
      card.classList.add("ds__card--dragging");
    });
    card.addEventListener("dragend", function () { card.classList.remove("ds__card--dragging"); });
    card.addEventListener("dragover", function (event) { event.preventDefault(); });
    card.addEventListener("drop", function (event) {
      event.preventDefault();
      var from = list.querySelector('.ds__card[data-position="' + event.dataTransfer.getData("text/plain") + '"]');
      if (!from || from === card) return;
      var a = placeOf(from), b = placeOf(card), swap = a.value;
      a.value = b.value; b.value = swap;
      a.setAttribute("data-was", a.value); b.setAttribute("data-was", b.value);
      resort();
    });
  });
  resort();
})();
