// Chart pages run under a Content-Security-Policy without 'unsafe-inline' styles. plotly.js (and
// d3 inside it) sets some styles with setAttribute("style", ...), which that policy refuses; the
// same text written through the CSSOM (element.style.cssText) is allowed. Loaded before plotly.js,
// on chart pages only.
(function () {
  "use strict";
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (typeof name === "string" && name.toLowerCase() === "style") {
      this.style.cssText = String(value);
      return;
    }
    return setAttribute.call(this, name, value);
  };
})();
