// Sign-up: show the email field only to teachers (students are children: no email).
(function () {
  "use strict";
  var form = document.querySelector("[data-signup-form]");
  if (!form) { return; }
  var emailField = form.querySelector("[data-teacher-only]");
  var emailInput = emailField && emailField.querySelector("input");
  function update() {
    var role = form.querySelector("input[name=role]:checked");
    var teacher = role && role.value === "teacher";
    emailField.hidden = !teacher;
    if (!teacher && emailInput && !emailField.classList.contains("field--error")) {
      emailInput.value = "";
    }
  }
  if (!emailField) { return; }
  form.addEventListener("change", function (event) {
    if (event.target.name === "role") { update(); }
  });
  update();
})();
