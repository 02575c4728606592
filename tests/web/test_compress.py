"""Responses compressed as the browser accepts (issue 25, Flask-Compress): pages, CSS, scripts,
JSON and CSV files; not what is compressed already; never for a client that does not ask."""

from __future__ import annotations

import gzip
import re

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def test_a_page_is_compressed_for_a_browser_and_plain_otherwise(client):
    plain = client.get("/deck/")
    assert "Content-Encoding" not in plain.headers
    packed = client.get("/deck/", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 4


def test_static_files_and_downloads_are_compressed_but_not_a_zip(client):
    css = re.search(r'href="(/static/css/site\.css[^"]*)"', client.get("/").get_data(as_text=True))
    assert css is not None
    with client.get(css.group(1), headers=BROWSER) as response:
        assert response.headers.get("Content-Encoding") in {"zstd", "br", "gzip"}
    with client.get("/deck/geoplunge-facts.csv", headers=BROWSER) as response:
        assert response.headers.get("Content-Encoding") in {"zstd", "br", "gzip"}
    with client.get("/deck/geoplunge-states.apkg", headers=BROWSER) as response:
        assert "Content-Encoding" not in response.headers
