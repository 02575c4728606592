"""Static files with content-hashed URLs and a year of caching (issue 25, :mod:`trainer.web.assets`):
a page names each file with its hash; that URL is cached for good; any other is revalidated."""

from __future__ import annotations

import os
import re

from trainer.web.assets import DIGITS, YEAR, Hashes

STATIC = re.compile(r'(?:src|href)="(/static/[^"?]+)\?v=([0-9a-f]+)"')


def test_every_static_url_of_a_page_carries_its_files_hash(client):
    page = client.get("/").get_data(as_text=True)
    found = STATIC.findall(page)
    assert {path for path, _v in found} >= {"/static/css/site.css", "/static/js/nav.js"}
    every = re.findall(r'"(/static/[^"]*)"', page)
    assert every and all("?v=" in url for url in every), every  # none without its hash
    for path, digest in found:
        assert len(digest) == DIGITS
        with client.get(f"{path}?v={digest}") as cached:
            assert cached.status_code == 200
            assert cached.headers["Cache-Control"] == f"public, max-age={YEAR}, immutable"


def test_a_url_without_the_hash_or_with_an_old_one_is_revalidated(client):
    for url in ("/static/css/site.css", "/static/css/site.css?v=0123456789"):
        with client.get(url) as response:
            assert response.status_code == 200
            assert "immutable" not in response.headers.get("Cache-Control", ""), url
    assert client.get("/static/nothing-here.css?v=0123456789").status_code == 404


def test_the_hash_follows_the_files_content(tmp_path):
    (tmp_path / "a.js").write_text("one", encoding="utf-8")
    hashes = Hashes(str(tmp_path), watch=True)
    first = hashes.of("a.js")
    assert first is not None and hashes.of("a.js") == first
    (tmp_path / "a.js").write_text("two!", encoding="utf-8")
    os.utime(tmp_path / "a.js", (1, 1))
    assert hashes.of("a.js") not in (None, first)
    # Nothing outside the folder, and no file: no hash.
    assert hashes.of("../a.js") is None and hashes.of("missing.js") is None


def test_without_debug_a_hash_is_computed_once(tmp_path):
    """The app outside debug mode: a file's hash is looked up, not recomputed, for every page;
    only real files are kept."""
    (tmp_path / "a.js").write_text("one", encoding="utf-8")
    hashes = Hashes(str(tmp_path))
    first = hashes.of("a.js")
    (tmp_path / "a.js").write_text("two!", encoding="utf-8")
    assert hashes.of("a.js") == first
    assert hashes.of("missing.js") is None and hashes.of("../a.js") is None
    (tmp_path / "missing.js").write_text("now here", encoding="utf-8")
    assert hashes.of("missing.js") not in (None, first)
