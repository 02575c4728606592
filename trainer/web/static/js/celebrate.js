// The round-done celebration's optional sound (#21): a toggle, off by default, remembered in this
// browser only (localStorage: no settings column stores it per student). The tone is made with the
// Web Audio API, no file to download. Without JavaScript the toggle stays hidden and nothing plays.
(function () {
  "use strict";
  var KEY = "geoplunge.sound";
  var toggle = document.getElementById("sound-toggle");
  if (!toggle) { return; }

  function stored() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function store(on) {
    try {
      if (on) { window.localStorage.setItem(KEY, "on"); } else { window.localStorage.removeItem(KEY); }
    } catch (e) { /* storage refused (private mode): the toggle still works on this page */ }
  }

  var Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) { return; } // no Web Audio: keep the toggle hidden
  var context = null;

  // Three rising notes, soft and short (about half a second).
  function chime() {
    if (!context) { context = new Context(); }
    if (context.state === "suspended") { context.resume(); }
    var start = context.currentTime + 0.02;
    [523.25, 659.25, 783.99].forEach(function (frequency, i) {
      var at = start + i * 0.12;
      var oscillator = context.createOscillator();
      var gain = context.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.32);
    });
  }

  function show(on) {
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? "Sound: on" : "Sound: off";
  }

  var on = stored();
  show(on);
  toggle.parentElement.hidden = false;
  toggle.addEventListener("click", function () {
    on = !on;
    store(on);
    show(on);
    if (on) { chime(); }
  });

  // Points earned and the sound is on: play once. A browser that blocks sound until the page is
  // tapped keeps it silent (the toggle still plays it when pressed).
  if (on && document.querySelector("[data-celebrate]")) {
    try { chime(); } catch (e) { /* no sound is fine */ }
  }
})();
