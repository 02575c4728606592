// Draw each chart of the page from its figure (data-figure, JSON made on the server). The
// sentence and the table next to each chart say the same for anyone who cannot see it.
//
// plotly.js is half a megabyte, so the page comes first: it is fetched (from the app, the URL in
// this script's data-plotly) only once a chart is within a screen of being seen, and each chart is
// drawn as it comes near. A browser without IntersectionObserver fetches it at once and draws all.
(function () {
  "use strict";
  var charts = Array.prototype.slice.call(document.querySelectorAll("[data-figure]"));
  var script = document.currentScript;
  var source = script && script.getAttribute("data-plotly");
  if (!charts.length || !source) {
    return;
  }
  var config = { displayModeBar: false, responsive: true, scrollZoom: false, doubleClick: false };
  var loading = null;
  var waiting = [];

  function draw(element) {
    if (element.hasAttribute("data-chart-drawing")) {
      return;
    }
    element.setAttribute("data-chart-drawing", "");
    var figure = JSON.parse(element.getAttribute("data-figure"));
    window.Plotly.newPlot(element, figure.data, figure.layout, config).then(function () {
      element.classList.add("chart--drawn");
    });
  }

  function withPlotly(element) {
    if (window.Plotly) {
      draw(element);
      return;
    }
    waiting.push(element);
    if (loading) {
      return;
    }
    loading = document.createElement("script");
    loading.src = source;
    loading.onload = function () {
      if (!window.Plotly) {
        return; // the tables are still there
      }
      waiting.splice(0).forEach(draw);
    };
    document.head.appendChild(loading);
  }

  if (!("IntersectionObserver" in window)) {
    charts.forEach(withPlotly);
    return;
  }
  var near = new IntersectionObserver(
    function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          near.unobserve(entry.target);
          withPlotly(entry.target);
        }
      });
    },
    { rootMargin: "100% 0px" }
  );
  charts.forEach(function (element) {
    near.observe(element);
  });
})();
