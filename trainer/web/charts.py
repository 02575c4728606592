"""plotly.js, served by the app from the ``plotly`` package (never a CDN), and the CSP of chart pages.

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
from functools import cache
from pathlib import Path

import plotly
from flask import Response, current_app, request

from .security import CONTENT_SECURITY_POLICY

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
#: The stylesheet plotly.js adds for MapLibre starts with this rule.
_MAPLIBRE_CSS_START = ".maplibregl-map{"
#: A year: the file's URL names plotly's version, so a new version is a new URL.
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
    return plotly.__version__


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
