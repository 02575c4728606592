// The assignment form: hide the fields that do not apply to the answers chosen ("How many" for a
// goal, the goal for a number of rounds, the student ticks for everyone). Each such field sits in
// a block saying which answer it belongs to (data-applies-when: the other field's name,
// data-applies-values: its values). Without script every field shows, with a hint saying when it
// applies, and the server ignores the ones that do not apply.
(function () {
  "use strict";
  var blocks = document.querySelectorAll("[data-applies-when]");
  if (!blocks.length) return;
  var form = blocks[0].closest("form");
  if (!form) return;

  function chosen(name) {
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    return checked ? checked.value : null;
  }

  function update() {
    Array.prototype.forEach.call(blocks, function (block) {
      var value = chosen(block.getAttribute("data-applies-when"));
      var values = (block.getAttribute("data-applies-values") || "").split(" ");
      // Nothing chosen yet: show the field, as the page does without script.
      block.hidden = value !== null && values.indexOf(value) === -1;
    });
  }

  form.addEventListener("change", function (event) {
    var name = event.target && event.target.name;
    for (var i = 0; i < blocks.length; i++) {
      if (blocks[i].getAttribute("data-applies-when") === name) {
        update();
        return;
      }
    }
  });
  update();
})();
