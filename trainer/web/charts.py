"""plotly.js, served by the app (never a CDN), and the CSP of chart pages.

The bundle is plotly.js's own "cartesian" distribution (``vendor/plotly-cartesian.min.js``, from
the npm package ``plotly.js-cartesian-dist-min``, MIT): the bar, scatter and heatmap traces the
dashboards draw, and no maps, 3D or finance. It is 1.5 MB and 0.5 MB gzipped where the full
plotly.js the ``plotly`` package ships is 4.8 MB and 1.5 MB (issue 25: a dashboard on a 3 Mbit/s
school link). Its version is the one the ``plotly`` package writes figures for (a test checks it),
so a new ``plotly`` needs the matching bundle.

plotly.js injects two stylesheets when it loads: an empty ``<style>`` it then fills through the
CSSOM, and the MapLibre stylesheet it bundles. A chart page allows exactly those two by their
SHA-256 hashes (computed here from the bundle itself, so they follow plotly upgrades) and no other
inline style; scripts stay ``'self'`` only. ``static/js/csp-shim.js`` turns the style attributes
plotly sets into CSSOM writes, which the policy allows.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
from functools import cache
from pathlib import Path

from flask import Response, current_app, request

from .security import CONTENT_SECURITY_POLICY

PLOTLY_JS = Path(__file__).parent / "vendor" / "plotly-cartesian.min.js"
#: The bundle's first comment names its version: "plotly.js (cartesian - minified) v4.1.1".
_VERSION = re.compile(r"plotly\.js \(cartesian[^)]*\) v(\d+\.\d+\.\d+)")
#: The stylesheet plotly.js adds for MapLibre starts with this rule.
_MAPLIBRE_CSS_START = ".maplibregl-map{"
#: A year: the file's URL names the bundle's version, so a new version is a new URL.
_MAX_AGE = 365 * 24 * 3600


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@cache
def plotly_bytes() -> tuple[bytes, bytes]:
    """plotly.min.js as it is and gzipped (about a third of its size, for slow school networks)."""
    raw = PLOTLY_JS.read_bytes()
    return raw, gzip.compress(raw, compresslevel=9, mtime=0)


@cache
def plotly_version() -> str:
    """The version of the plotly.js bundle served (its URL names it)."""
    with PLOTLY_JS.open(encoding="utf-8") as file:
        found = _VERSION.search(file.read(400))
    if found is None:
        raise RuntimeError(f"{PLOTLY_JS} does not name its plotly.js version")
    return found.group(1)


@cache
def plotly_style_hashes() -> tuple[str, ...]:
    """The hashes of the two stylesheets plotly.js injects (see the module's docstring)."""
    js = PLOTLY_JS.read_text(encoding="utf-8")
    hashes = [_hash("")]
    start = js.find(_MAPLIBRE_CSS_START)
    if start > 0:
        quote = js[start - 1]
        end = js.find(quote, start)
        css = js[start:end]
        if "\\" not in css:  # a plain literal: its text is the stylesheet's text
            hashes.append(_hash(css))
    return tuple(hashes)


def chart_policy() -> str:
    """The app's CSP with plotly's two stylesheets allowed by hash."""
    extra = " ".join(plotly_style_hashes())
    return CONTENT_SECURITY_POLICY.replace("style-src 'self'", f"style-src 'self' {extra}")


def chart_page(html: str, status: int = 200) -> Response:
    """A rendered page with charts, under the chart CSP."""
    response = current_app.make_response((html, status))
    response.headers["Content-Security-Policy"] = chart_policy()
    return response


def plotly_response() -> Response:
    """plotly.min.js, gzipped when the browser accepts it, cached for a year."""
    raw, packed = plotly_bytes()
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    response = Response(packed if gzipped else raw, mimetype="text/javascript")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = f"public, max-age={_MAX_AGE}, immutable"
    return response
