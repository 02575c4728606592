// Draw each chart of the page from its figure (data-figure, JSON made on the server). The
// sentence and the table next to each chart say the same for anyone who cannot see it.
(function () {
  "use strict";
  if (!window.Plotly) {
    return; // the tables are still there
  }
  var config = { displayModeBar: false, responsive: true, scrollZoom: false, doubleClick: false };
  document.querySelectorAll("[data-figure]").forEach(function (element) {
    var figure = JSON.parse(element.getAttribute("data-figure"));
    window.Plotly.newPlot(element, figure.data, figure.layout, config).then(function () {
      element.classList.add("chart--drawn");
    });
  });
})();
