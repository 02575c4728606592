"""Static files with content-hashed URLs, cached for a year (issue 25).

Every page used to re-ask for its stylesheet, scripts and icon (Flask serves static files
``no-cache``), each a full trip through the app: 72% of a lesson's requests. Now every
``url_for("static", filename=...)`` carries the file's own hash (``/static/css/site.css?v=3f9a0c1b2d``),
and a request whose ``v`` is the file's hash now is answered with a year of immutable caching: the
browser keeps the file and never asks again until the file changes, and then its URL changes too.
A request without ``v``, or with an old one (a page from before a deploy), is served as before:
revalidated, never kept stale.

The hash is of the file's bytes, kept per process. In debug mode (the development server) it is
recomputed when the file's modification time or size changes, so an edited script is picked up at
once; otherwise a file's hash is computed once, since a page names a dozen files and looking at
each on disk for every page was a tenth of a page's time.
"""

from __future__ import annotations

import hashlib
import os
import threading
from typing import Any

from flask import Flask, request
from werkzeug.wrappers import Response

#: A year: "immutable" caching for as long as browsers keep anything.
YEAR = 365 * 24 * 3600
#: Hex digits of the hash in the URL: enough that two versions of a file never share one.
DIGITS = 10
#: Names whose hash is kept for good (without ``watch``): far more than the folder holds.
FILES = 4096


class Hashes:
    """Each static file's content hash, by path, with the stat it was computed for."""

    def __init__(self, folder: str, watch: bool = False) -> None:
        self.folder = folder
        self.watch = watch
        self._known: dict[str, tuple[tuple[float, int], str]] = {}
        #: Without ``watch``: the hash (or None) by the name as asked, once found.
        self._final: dict[str, str] = {}
        self._lock = threading.Lock()

    def of(self, filename: str) -> str | None:
        """The hash of ``filename`` under the static folder; None if there is no such file (or
        the name leaves the folder)."""
        if not self.watch:
            digest = self._final.get(filename)
            if digest is None:
                digest = self._look(filename)
                # Only real files are kept, and at most FILES names: a request's own path
                # (cache_hashed) cannot grow the dict without end.
                if digest is not None and len(self._final) < FILES:
                    self._final[filename] = digest
            return digest
        return self._look(filename)

    def _look(self, filename: str) -> str | None:
        path = os.path.realpath(os.path.join(self.folder, filename))
        if not path.startswith(os.path.realpath(self.folder) + os.sep):
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = (stat.st_mtime, stat.st_size)
        known = self._known.get(path)
        if known is not None and known[0] == key:
            return known[1]
        with open(path, "rb") as file:
            digest = hashlib.sha256(file.read()).hexdigest()[:DIGITS]
        with self._lock:
            self._known[path] = (key, digest)
        return digest


def init_app(app: Flask) -> None:
    if app.static_folder is None:
        return
    hashes = Hashes(app.static_folder, watch=app.debug)
    app.extensions["static_hashes"] = hashes

    @app.url_defaults
    def hashed_static(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            digest = hashes.of(str(values.get("filename", "")))
            if digest is not None:
                values["v"] = digest

    @app.after_request
    def cache_hashed(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code != 200:
            return response
        if response.mimetype in app.config.get("COMPRESS_MIMETYPES", ()):
            # Read in whole (the files are small) so Flask-Compress compresses it in one piece:
            # streamed, its wrapper would drop the file unclosed (this hook runs before it).
            response.direct_passthrough = False
            response.make_sequence()
        wanted = request.args.get("v")
        filename = (request.view_args or {}).get("filename", "")
        if wanted and wanted == hashes.of(str(filename)):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response
