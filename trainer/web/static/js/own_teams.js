// The new-tournament form (teach/tournament_new.html): the "own teams" selects are shown only
// while "I'll form them" is chosen. Without JavaScript they stay shown, and their hint says when
// they apply; the server ignores them when the teams are drawn at random.
(function () {
  "use strict";
  var box = document.querySelector("[data-own-teams]");
  if (!box) {
    return;
  }
  var radios = document.querySelectorAll('input[name="teams"]');
  function update() {
    box.hidden = !document.querySelector('input[name="teams"][value="manual"]:checked');
  }
  radios.forEach(function (radio) {
    radio.addEventListener("change", update);
  });
  update();
})();
