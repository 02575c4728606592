#!/usr/bin/env python3
"""Build data/map_paths.json: one SVG path per US state, keyed by postal code.

Source: the npm package ``us-atlas`` (file ``states-albers-10m.json``), which
holds the US Census Bureau cartographic boundary files at 1:10,000,000 as
TopoJSON, already projected with d3.geoAlbersUsa (Alaska and Hawaii drawn as
insets in the lower left) to fit a 975x610 viewBox.

Rebuild (stdlib only; npm is needed just to fetch the data file):

    npm install --prefix /tmp/us-atlas us-atlas@3
    python scripts/build_map.py /tmp/us-atlas/node_modules/us-atlas/states-albers-10m.json

Options: ``-o PATH`` sets the output file (default: data/map_paths.json in
this repo); ``--atlas-version X.Y.Z`` overrides the us-atlas version, which is
otherwise read from the package.json next to the input file.

Output format::

    {"source": "us-atlas@<version> states-albers-10m.json (...)",
     "viewBox": "0 0 975 610",
     "states": {"AL": {"d": "m...z", "bbox": [x0, y0, x1, y1],
                       "centroid": [x, y]}, ...}}

* ``d`` uses only relative commands: ``m`` starts each ring (relative to the
  start of the previous ring, since ``z`` returns the current point there; the
  first ``m`` is relative to the origin, i.e. absolute), ``l``/``h``/``v`` for
  the following points and ``z`` to close.  Absolute coordinates are rounded to
  0.1 first and the steps are differences of the rounded positions, so no
  rounding error accumulates and every ring closes exactly.  Points that round
  to a zero move are dropped; rings with fewer than 3 distinct points after
  rounding are dropped, and so are rings not wholly inside the viewBox: the
  Albers USA projection puts the westernmost Aleutian islands (west of about
  179 W, e.g. Attu) at x < 0, off the left edge of the 975x610 map.
* ``bbox`` is the bounding box of the path's points (1 decimal).
* ``centroid`` is the area-weighted centroid of the largest ring (1 decimal),
  used to place call-out markers for tiny states.

Only the 50 states are written (DC and territories are skipped).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "data" / "map_paths.json"
VIEWBOX = "0 0 975 610"
VIEW_W, VIEW_H = 975, 610

# FIPS state code -> USPS postal code, the 50 states only.
FIPS_TO_POSTAL = {
    "01": "AL",
    "02": "AK",
    "04": "AZ",
    "05": "AR",
    "06": "CA",
    "08": "CO",
    "09": "CT",
    "10": "DE",
    "12": "FL",
    "13": "GA",
    "15": "HI",
    "16": "ID",
    "17": "IL",
    "18": "IN",
    "19": "IA",
    "20": "KS",
    "21": "KY",
    "22": "LA",
    "23": "ME",
    "24": "MD",
    "25": "MA",
    "26": "MI",
    "27": "MN",
    "28": "MS",
    "29": "MO",
    "30": "MT",
    "31": "NE",
    "32": "NV",
    "33": "NH",
    "34": "NJ",
    "35": "NM",
    "36": "NY",
    "37": "NC",
    "38": "ND",
    "39": "OH",
    "40": "OK",
    "41": "OR",
    "42": "PA",
    "44": "RI",
    "45": "SC",
    "46": "SD",
    "47": "TN",
    "48": "TX",
    "49": "UT",
    "50": "VT",
    "51": "VA",
    "53": "WA",
    "54": "WV",
    "55": "WI",
    "56": "WY",
}
assert len(FIPS_TO_POSTAL) == 50


# ---------------------------------------------------------------- TopoJSON


def decode_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    """Return every arc as a list of absolute (x, y) points."""
    transform = topology.get("transform")
    arcs = []
    if transform:
        sx, sy = transform["scale"]
        tx, ty = transform["translate"]
        for arc in topology["arcs"]:
            x = y = 0
            pts = []
            for p in arc:  # delta-encoded quantized positions
                x += p[0]
                y += p[1]
                pts.append((x * sx + tx, y * sy + ty))
            arcs.append(pts)
    else:
        for arc in topology["arcs"]:
            arcs.append([(float(p[0]), float(p[1])) for p in arc])
    return arcs


def stitch_ring(indexes: list[int], arcs) -> list[tuple[float, float]]:
    """Join a ring's arcs; ~i (i.e. -i-1) means arc i reversed."""
    ring: list[tuple[float, float]] = []
    for i in indexes:
        pts = arcs[~i][::-1] if i < 0 else arcs[i]
        if ring:
            pts = pts[1:]  # first point duplicates the previous arc's last
        ring.extend(pts)
    return ring


def geometry_rings(geom: dict, arcs) -> list[list[tuple[float, float]]]:
    """All rings (exteriors and holes) of a Polygon / MultiPolygon."""
    if geom["type"] == "Polygon":
        polygons = [geom["arcs"]]
    elif geom["type"] == "MultiPolygon":
        polygons = geom["arcs"]
    else:
        return []
    return [stitch_ring(r, arcs) for poly in polygons for r in poly]


# ---------------------------------------------------------------- geometry


def to_tenths(ring) -> list[tuple[int, int]]:
    """Round a ring to integer tenths, drop zero moves and the closing point."""
    out: list[tuple[int, int]] = []
    for x, y in ring:
        p = (round(x * 10), round(y * 10))
        if not out or p != out[-1]:
            out.append(p)
    while len(out) > 1 and out[-1] == out[0]:
        out.pop()
    return out


def ring_area_centroid(ring) -> tuple[float, float, float]:
    """Signed area and area-weighted centroid of a closed ring."""
    a = cx = cy = 0.0
    n = len(ring)
    for k in range(n):
        x0, y0 = ring[k]
        x1, y1 = ring[(k + 1) % n]
        c = x0 * y1 - x1 * y0
        a += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    a /= 2
    if a == 0:
        xs, ys = zip(*ring)
        return 0.0, sum(xs) / n, sum(ys) / n
    return a, cx / (6 * a), cy / (6 * a)


# ---------------------------------------------------------------- output


def fmt(t: int) -> str:
    """Format a value given in tenths compactly: 15 -> '1.5', 5 -> '.5',
    -5 -> '-.5', 20 -> '2', 0 -> '0'."""
    sign = "-" if t < 0 else ""
    q, r = divmod(abs(t), 10)
    if r == 0:
        return f"{sign}{q}"
    return f"{sign}{q if q else ''}.{r}"


def join_nums(vals: list[int]) -> str:
    """Numbers separated by a space, or by nothing before a minus sign."""
    s = ""
    for v in vals:
        n = fmt(v)
        if s and not n.startswith("-"):
            s += " "
        s += n
    return s


def path_d(rings: list[list[tuple[int, int]]]) -> str:
    parts = []
    px = py = 0  # current point; after z it is the ring's start point
    for ring in rings:
        sx, sy = ring[0]
        parts.append("m" + join_nums([sx - px, sy - py]))
        px, py = sx, sy
        cmd = None
        for x, y in ring[1:]:
            dx, dy = x - px, y - py
            if dy == 0:
                c, vals = "h", [dx]
            elif dx == 0:
                c, vals = "v", [dy]
            else:
                c, vals = "l", [dx, dy]
            body = join_nums(vals)
            if c == cmd:  # implicit repetition of the same command
                parts.append(body if body.startswith("-") else " " + body)
            else:
                parts.append(c + body)
                cmd = c
            px, py = x, y
        parts.append("z")
        px, py = sx, sy
    return "".join(parts)


def build(topology: dict) -> dict:
    arcs = decode_arcs(topology)
    states = {}
    for geom in topology["objects"]["states"]["geometries"]:
        postal = FIPS_TO_POSTAL.get(str(geom.get("id")).zfill(2))
        if postal is None:
            continue  # DC, territories
        rings = [to_tenths(r) for r in geometry_rings(geom, arcs)]
        rings = [r for r in rings if len(set(r)) >= 3]
        inside = [
            r for r in rings if all(0 <= x <= VIEW_W * 10 and 0 <= y <= VIEW_H * 10 for x, y in r)
        ]
        if len(inside) != len(rings):
            print(
                f"{postal}: dropped {len(rings) - len(inside)} ring(s) outside the viewBox",
                file=sys.stderr,
            )
        rings = inside
        if not rings:
            raise SystemExit(f"{postal}: no ring survived rounding")
        xs = [p[0] for r in rings for p in r]
        ys = [p[1] for r in rings for p in r]
        largest = max(rings, key=lambda r: abs(ring_area_centroid(r)[0]))
        _, cx, cy = ring_area_centroid(largest)
        states[postal] = {
            "d": path_d(rings),
            "bbox": [min(xs) / 10, min(ys) / 10, max(xs) / 10, max(ys) / 10],
            "centroid": [round(cx / 10, 1), round(cy / 10, 1)],
        }
    missing = set(FIPS_TO_POSTAL.values()) - set(states)
    if missing:
        raise SystemExit(f"missing states in input: {sorted(missing)}")
    return dict(sorted(states.items()))


def dumps(doc: dict) -> str:
    """Compact JSON, one state per line."""
    c = dict(separators=(",", ":"), ensure_ascii=False)
    lines = [
        "{" + json.dumps("source") + ":" + json.dumps(doc["source"], **c) + ",",
        json.dumps("viewBox") + ":" + json.dumps(doc["viewBox"]) + ",",
        json.dumps("states") + ":{",
    ]
    items = list(doc["states"].items())
    for k, (code, st) in enumerate(items):
        sep = "," if k < len(items) - 1 else ""
        lines.append(json.dumps(code) + ":" + json.dumps(st, **c) + sep)
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("topojson", type=Path, help="path to us-atlas states-albers-10m.json")
    ap.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--atlas-version", help="us-atlas version (default: read package.json)")
    args = ap.parse_args(argv)

    version = args.atlas_version
    if not version:
        pkg = args.topojson.resolve().parent / "package.json"
        try:
            version = json.loads(pkg.read_text())["version"]
        except (OSError, ValueError, KeyError):
            raise SystemExit(
                f"cannot read us-atlas version from {pkg}; pass --atlas-version"
            ) from None

    topology = json.loads(args.topojson.read_text())
    states = build(topology)
    doc = {
        "source": f"us-atlas@{version} {args.topojson.name} "
        "(US Census Bureau cartographic boundary files, 1:10,000,000)",
        "viewBox": VIEWBOX,
        "states": states,
    }
    text = dumps(doc)
    json.loads(text)  # sanity: valid JSON
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    total_d = sum(len(s["d"]) for s in states.values())
    print(
        f"wrote {args.out} ({len(text.encode())} bytes; {len(states)} states; "
        f"d strings {total_d} bytes)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
