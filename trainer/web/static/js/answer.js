// Answer forms (review, State IQ): times the answer, number keys pick a choice, Enter submits or goes on, the map can be clicked (Enter or Space on a state chooses it).
(function () {
  "use strict";
  // After an answer: Enter goes on to the next fact, wherever the focus is not on another control.
  var next = document.getElementById("next");
  if (next) {
    if (document.activeElement === document.body) next.focus();
    document.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.target === document.body || event.target === document.documentElement)) {
        event.preventDefault();
        next.click();
      }
    });
  }
  var form = document.getElementById("answer-form");
  if (!form) return;
  var started = performance.now();
  var elapsed = document.getElementById("elapsed_ms");
  var check = document.getElementById("check");
  var submitting = false;

  function submitWith(button) {
    if (submitting) return;
    submitting = true;
    if (elapsed) elapsed.value = String(Math.round(performance.now() - started));
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else form.submit();
  }

  form.addEventListener("submit", function () {
    submitting = true;
    if (elapsed && !elapsed.value) elapsed.value = String(Math.round(performance.now() - started));
  });

  var radios = form.querySelectorAll('input[type="radio"][name="answer"]');
  if (radios.length) {
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var n = parseInt(event.key, 10);
      if (n >= 1 && n <= radios.length) {
        radios[n - 1].checked = true;
        radios[n - 1].focus();
        event.preventDefault();
      } else if (event.key === "Enter" && event.target.type === "radio") {
        event.preventDefault();
        submitWith(check);
      }
    });
  }

  var answer = document.getElementById("answer");
  var states = form.querySelectorAll(".map-state--pick");
  Array.prototype.forEach.call(states, function (path) {
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
})();
