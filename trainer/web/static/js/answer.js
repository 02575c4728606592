// Answer forms (review, State IQ): times the answer, number keys pick a choice, Enter submits or goes on, the map can be clicked (Enter or Space on a state chooses it).
// A study question's form (data-instant) answers as soon as an option is picked: a click or tap,
// a number key, or Enter or Space on an option (the arrow keys only move between options).
// study_instant.js shows the next fragment and calls GeoAnswer.init() again for it.
(function () {
  "use strict";
  var form = null;
  var started = 0;
  var submitting = false;
  // When the pointer last went down on an option: a change right after it is a click or a tap.
  var pointerAt = -Infinity;

  function instant() {
    return !!form && form.hasAttribute("data-instant");
  }

  function radios() {
    return form ? form.querySelectorAll('input[type="radio"][name="answer"]') : [];
  }

  function submitWith(button) {
    if (submitting || !form) return;
    submitting = true;
    var elapsed = form.querySelector("#elapsed_ms");
    if (elapsed) elapsed.value = String(Math.round(performance.now() - started));
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else form.submit();
  }

  function pickOption(radio) {
    radio.checked = true;
    radio.focus();
    submitWith(null);
  }

  // Keys, once for the document: they act on whatever question or feedback is shown now.
  document.addEventListener("keydown", function (event) {
    var next = document.getElementById("next");
    if (next && !document.getElementById("answer-form")) {
      // After an answer: Enter goes on to the next fact, wherever the focus is not on another control.
      var target = event.target;
      var free = target === document.body || target === document.documentElement ||
        (target.id === "verdict-title" && target.closest && target.closest("#study-item"));
      if (event.key === "Enter" && free) {
        event.preventDefault();
        next.click();
      }
      return;
    }
    var options = radios();
    if (!options.length || event.altKey || event.ctrlKey || event.metaKey) return;
    var n = parseInt(event.key, 10);
    if (n >= 1 && n <= options.length) {
      event.preventDefault();
      if (instant()) pickOption(options[n - 1]);
      else {
        options[n - 1].checked = true;
        options[n - 1].focus();
      }
    } else if ((event.key === "Enter" || event.key === " ") && event.target.type === "radio" &&
               event.target.name === "answer") {
      if (instant()) {
        event.preventDefault();
        pickOption(event.target);
      } else if (event.key === "Enter") {
        event.preventDefault();
        submitWith(document.getElementById("check"));
      }
    }
  });

  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest(".choice")) pointerAt = performance.now();
  });

  document.addEventListener("change", function (event) {
    var radio = event.target;
    if (!instant() || radio.type !== "radio" || radio.name !== "answer" || !form.contains(radio)) return;
    if (performance.now() - pointerAt < 2000) submitWith(null);
  });

  // The question shown now: its timer, its map and, for instant answers, no Check button.
  function init() {
    form = document.getElementById("answer-form");
    submitting = false;
    if (!form) return;
    started = performance.now();
    var elapsed = form.querySelector("#elapsed_ms");
    form.addEventListener("submit", function () {
      submitting = true;
      if (elapsed && !elapsed.value) elapsed.value = String(Math.round(performance.now() - started));
    });
    if (instant() && radios().length) {
      var check = document.getElementById("check");
      if (check) check.hidden = true;
      var hint = document.getElementById("choice-hint");
      if (hint && hint.getAttribute("data-instant-text")) hint.textContent = hint.getAttribute("data-instant-text");
    }
    var answer = form.querySelector("#answer");
    Array.prototype.forEach.call(form.querySelectorAll(".map-state--pick"), function (path) {
      function pick(event) {
        event.preventDefault();
        // A study map posts the outline's spot number (it names no state); State IQ's posts the code.
        answer.value = path.getAttribute("data-spot") || path.getAttribute("data-postal");
        path.classList.add("map-state--picked");
        submitWith(null);
      }
      path.addEventListener("click", pick);
      path.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") pick(event);
      });
    });
  }

  init();
  var next = document.getElementById("next");
  if (next && document.activeElement === document.body) next.focus();

  window.GeoAnswer = {
    init: init,
    // The form can be sent again (the answer did not reach the server).
    ready: function () {
      submitting = false;
      Array.prototype.forEach.call(document.querySelectorAll(".map-state--picked"), function (path) {
        path.classList.remove("map-state--picked");
      });
    }
  };
})();
