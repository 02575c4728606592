"""Checks on data/map_paths.json (built by scripts/build_map.py from us-atlas)."""

import json
import re
from pathlib import Path

import pytest

from trainer.cards.geometry import path_rings

MAP_FILE = Path(__file__).parents[2] / "data" / "map_paths.json"

STATES = {
    "AL",
    "AK",
    "AZ",
    "AR",
    "CA",
    "CO",
    "CT",
    "DE",
    "FL",
    "GA",
    "HI",
    "ID",
    "IL",
    "IN",
    "IA",
    "KS",
    "KY",
    "LA",
    "ME",
    "MD",
    "MA",
    "MI",
    "MN",
    "MS",
    "MO",
    "MT",
    "NE",
    "NV",
    "NH",
    "NJ",
    "NM",
    "NY",
    "NC",
    "ND",
    "OH",
    "OK",
    "OR",
    "PA",
    "RI",
    "SC",
    "SD",
    "TN",
    "TX",
    "UT",
    "VT",
    "VA",
    "WA",
    "WV",
    "WI",
    "WY",
}


@pytest.fixture(scope="module")
def doc():
    with open(MAP_FILE, encoding="utf-8") as f:
        return json.load(f)


def viewbox(doc):
    x, y, w, h = (float(v) for v in doc["viewBox"].split())
    return x, y, x + w, y + h


def path_points(d):
    """Absolute points of a path made of relative m/l/h/v/z commands."""
    return [point for ring in path_rings(d) for point in ring]


def test_source_and_viewbox(doc):
    assert doc["viewBox"] == "0 0 975 610"
    assert re.match(r"us-atlas@\d+\.\d+\.\d+ states-albers-10m\.json", doc["source"])


def test_exactly_fifty_states(doc):
    assert set(doc["states"]) == STATES
    assert len(doc["states"]) == 50


@pytest.mark.parametrize("code", sorted(STATES))
def test_path_syntax(doc, code):
    d = doc["states"][code]["d"]
    assert d.startswith("m")
    assert re.fullmatch(r"[mlhvz0-9.\-, ]+", d)
    assert d.rstrip().endswith("z")


@pytest.mark.parametrize("code", sorted(STATES))
def test_bbox_inside_viewbox_and_matches_path(doc, code):
    st = doc["states"][code]
    vx0, vy0, vx1, vy1 = viewbox(doc)
    x0, y0, x1, y1 = st["bbox"]
    assert vx0 <= x0 < x1 <= vx1
    assert vy0 <= y0 < y1 <= vy1

    pts = path_points(st["d"])
    assert len(pts) >= 3
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    for got, want in zip((min(xs), min(ys), max(xs), max(ys)), st["bbox"]):
        assert abs(got - want) <= 0.11


@pytest.mark.parametrize("code", sorted(STATES))
def test_centroid_inside_bbox(doc, code):
    st = doc["states"][code]
    x0, y0, x1, y1 = st["bbox"]
    cx, cy = st["centroid"]
    assert x0 <= cx <= x1 and y0 <= cy <= y1


def test_alaska_hawaii_insets_lower_left(doc):
    # Actual: AK [0, 465, 202.9, 604.1], HI [216.2, 528.1, 332.1, 603.1].
    for code in ("AK", "HI"):
        x0, y0, x1, y1 = doc["states"][code]["bbox"]
        assert x1 < 350 and y0 > 450, code
    ak, hi = doc["states"]["AK"]["bbox"], doc["states"]["HI"]["bbox"]
    assert ak[2] < hi[0] + 1  # AK inset is left of HI inset


def test_rhode_island_is_tiny(doc):
    # Actual: about 14 x 20 (the mainland plus Block Island).
    x0, y0, x1, y1 = doc["states"]["RI"]["bbox"]
    assert x1 - x0 < 15
    assert y1 - y0 < 21
    areas = {
        code: (b[2] - b[0]) * (b[3] - b[1])
        for code, b in ((c, s["bbox"]) for c, s in doc["states"].items())
    }
    assert min(areas, key=areas.get) == "RI"
