// The assignment forms' test day: when the test day (or what to practise) changes, ask the server
// for the daily work it costs and show it in place. Without script, the "Preview" button does it.
(function () {
  "use strict";
  var form = document.querySelector("form[data-preview-url]");
  var body = document.querySelector("#test-day-preview [data-preview-body]");
  if (!form || !body || !window.fetch || !window.URLSearchParams || !window.FormData) return;
  var watched = ["test_on", "activities", "facets", "area", "states", "who", "students"];
  var latest = 0;

  function refresh() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      // Never the CSRF token in a URL; only what the preview reads.
      if (watched.indexOf(name) !== -1 && typeof value === "string") params.append(name, value);
    });
    var asked = ++latest;
    fetch(form.getAttribute("data-preview-url") + "?" + params.toString(), {
      credentials: "same-origin",
      headers: { "Accept": "text/html" }
    }).then(function (response) {
      if (!response.ok) throw new Error("preview " + response.status);
      return response.text();
    }).then(function (html) {
      // Only the answer to the latest question is shown (answers may come back out of order).
      if (asked === latest) body.innerHTML = html;
    }).catch(function () {
      // The "Preview" button still works.
    });
  }

  form.addEventListener("change", function (event) {
    var name = event.target && event.target.name;
    if (watched.indexOf(name) !== -1) refresh();
  });
})();
