// Sign-up: show the email field only to teachers (students are children: no email).
(function () {
  "use strict";
  var form = document.querySelector("[data-signup-form]");
  if (!form) { return; }
  var emailField = form.querySelector("[data-teacher-only]");
  if (!emailField) { return; }
  var emailInput = emailField.querySelector("input");
  function update() {
    var role = form.querySelector("input[name=role]:checked");
    var teacher = role && role.value === "teacher";
    // A field with an error stays in view, so its message can be read and acted on.
    var keep = teacher || emailField.querySelector(".field--error") !== null;
    emailField.hidden = !keep;
    if (!keep) { emailInput.value = ""; }
  }
  form.addEventListener("change", function (event) {
    if (event.target.name === "role") { update(); }
  });
  update();
})();
