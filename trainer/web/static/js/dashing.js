// Dashing States: the race (race.js) and the student's own clock; putting the cards in order by
// tapping them (or Enter/Space), by choosing places, or by drag and drop; a card shown larger.
// Without this script the page's select-based form works as it is; the server alone judges.
(function () {
  "use strict";
  window.geoplungeRace({
    progress: function (done) { return "The computer has found " + done + " of 5 states."; },
    called: "The computer has called GeoPlunge! Finish and call yours to see the result."
  });

  // The student's own time, next to the computer's progress (a timer: not read out each second).
  // At a race between classmates the clock itself says when both hands turned over
  // (data-clock-start) and the server's time when it made the page (data-clock-now), so it counts
  // on the server's clock, as live.js does. There live.js swaps the part of the page the clock is
  // in, so each tick looks for it afresh: one timer for whichever copy is shown.
  var race = document.getElementById("race");
  var clock = document.getElementById("ds-clock");
  var elapsed = NaN;
  if (clock && clock.hasAttribute("data-clock-start")) {
    elapsed = (Number(clock.getAttribute("data-clock-now")) -
      Number(clock.getAttribute("data-clock-start"))) / 1000;
  } else if (race && clock) {
    elapsed = parseFloat(race.getAttribute("data-elapsed"));
  }
  if (isFinite(elapsed)) {
    var started = performance.now() / 1000 - elapsed;
    var showClock = function () {
      var face = document.getElementById("ds-clock");
      if (!face) return;
      var s = Math.max(0, Math.floor(performance.now() / 1000 - started));
      var text = Math.floor(s / 60) + ":" + (s % 60 < 10 ? "0" : "") + (s % 60);
      if (face.textContent !== text) face.textContent = text;
      face.hidden = false;
    };
    showClock();
    window.setInterval(showClock, 250);
  }

  var list = document.getElementById("ds-cards");
  if (!list) return;
  var section = list.closest(".ds");
  var live = document.getElementById("ds-live");
  var cards = Array.prototype.slice.call(list.querySelectorAll(".ds__card"));
  var VALUES = ["1", "2", "3", "4", "aside"];
  var TEXT = { "1": "1st", "2": "2nd", "3": "3rd", "4": "4th", "aside": "Set aside" };
  var placeOf = function (card) { return document.getElementById("place-" + card.getAttribute("data-position")); };
  var letters = cards.map(function (card) { return card.querySelector(".ds__letter").textContent.replace("Card ", "").trim(); });
  var letterOf = function (card) { return letters[cards.indexOf(card)]; };
  var rank = function (card) { var v = placeOf(card).value; return v === "aside" ? 5 : parseInt(v, 10); };
  var holderOf = function (value) { return cards.filter(function (c) { return placeOf(c).value === value; })[0]; };

  // slots[k] is the card tapped to be (k+1)th, or null; a tapped card always holds its slot's place.
  var slots = [null, null, null, null];
  var slotOf = function (card) { return slots.indexOf(card); };
  var settled = function (card) {
    return slotOf(card) >= 0 || slots.every(function (c) { return c !== null; });
  };

  function resort() {
    cards.slice().sort(function (a, b) { return rank(a) - rank(b); }).forEach(function (card) { list.appendChild(card); });
  }

  function setPlace(card, value) {
    var select = placeOf(card);
    select.value = value;
    select.setAttribute("data-was", value);
  }

  // Every badge says the card's place; a tapped (or chosen) place is shown solid, the rest faint.
  function render() {
    cards.forEach(function (card) {
      var badge = card.querySelector(".ds__badge");
      if (!badge) return;
      var done = settled(card);
      badge.textContent = TEXT[placeOf(card).value];
      card.classList.toggle("ds__card--numbered", done);
      var tap = card.querySelector(".ds__tap");
      tap.setAttribute("aria-label", "Card " + letterOf(card) + ": " + TEXT[placeOf(card).value] +
        (done ? "" : ", not tapped yet"));
    });
  }

  function say(text) { if (live) { live.textContent = ""; window.setTimeout(function () { live.textContent = text; }, 50); } }

  // A tap numbers the card with the first free place (swapping with the card that held it);
  // a tap on a tapped card takes its number off again.
  function tap(card) {
    var k = slotOf(card);
    if (k >= 0) {
      slots[k] = null;
      render();
      say("Card " + letterOf(card) + ": number taken off. The next card you tap is " + TEXT[VALUES[k]] + ".");
      return;
    }
    if (slots.every(function (c) { return c !== null; })) {
      say("Card " + letterOf(card) + " is set aside. Tap a numbered card to take its number off.");
      return;
    }
    k = slots.indexOf(null);
    var wanted = VALUES[k], holder = holderOf(wanted), old = placeOf(card).value;
    if (holder && holder !== card) setPlace(holder, old);
    setPlace(card, wanted);
    slots[k] = card;
    render();
    var text = "Card " + letterOf(card) + " is " + TEXT[wanted] + ".";
    if (slots.every(function (c) { return c !== null; })) {
      var left = cards.filter(function (c) { return slotOf(c) < 0; })[0];
      text += " Card " + letterOf(left) + " is set aside.";
    }
    say(text);
  }

  // After a place is chosen in a list or by drag and drop, every card's place counts as chosen.
  function allChosen() {
    slots = ["1", "2", "3", "4"].map(holderOf);
    render();
  }

  // Each card becomes a button that numbers it, with a magnifier that shows it larger.
  cards.forEach(function (card) {
    var map = card.querySelector("svg.map-card");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "ds__tap";
    card.insertBefore(button, map);
    button.appendChild(map);
    var badge = document.createElement("span");
    badge.className = "ds__badge";
    badge.setAttribute("aria-hidden", "true");
    button.appendChild(badge);
    button.addEventListener("click", function () { tap(card); });

    var zoom = document.createElement("button");
    zoom.type = "button";
    zoom.className = "ds__zoom";
    zoom.setAttribute("aria-expanded", "false");
    zoom.innerHTML = '<svg class="ds__zoom-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">' +
      '<circle cx="10" cy="10" r="6.5"/><path d="M15 15l6 6M7 10h6M10 7v6"/></svg>' +
      '<span class="visually-hidden">Show card ' + letterOf(card) + " larger</span>";
    zoom.addEventListener("click", function () {
      var open = !card.classList.contains("ds__card--big");
      cards.forEach(function (other) {
        other.classList.remove("ds__card--big");
        other.querySelector(".ds__zoom").setAttribute("aria-expanded", "false");
      });
      card.classList.toggle("ds__card--big", open);
      zoom.setAttribute("aria-expanded", open ? "true" : "false");
      zoom.querySelector(".visually-hidden").textContent = "Show card " + letterOf(card) + (open ? " smaller" : " larger");
      zoom.querySelector("path").setAttribute("d", open ? "M15 15l6 6M7 10h6" : "M15 15l6 6M7 10h6M10 7v6");
      if (open) card.scrollIntoView({ block: "nearest" });
    });
    card.querySelector(".ds__letter").appendChild(zoom);
  });
  if (section) section.classList.add("ds--tap");
  var hint = document.getElementById("ds-hint"), tapHint = document.getElementById("ds-tap-hint");
  if (hint && tapHint) { hint.hidden = true; tapHint.hidden = false; }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var big = list.querySelector(".ds__card--big .ds__zoom");
    if (big) { big.click(); big.focus(); }
  });

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
      allChosen();
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
      allChosen();
    });
  });
  resort();
  render();
})();
