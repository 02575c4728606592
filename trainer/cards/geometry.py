"""Reads the project's SVG map paths (relative m/l/h/v/z commands) back into points and areas."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[mlhvz]|-?(?:\d+\.?\d*|\.\d+)")

Point = tuple[float, float]


def path_rings(d: str) -> list[list[Point]]:
    """The absolute points of each ring of a path written with relative m, l, h, v and z.

    Raises:
        ValueError: the path uses other commands or has a number with no command.
    """
    tokens = _TOKEN.findall(d)
    if "".join(tokens) != re.sub(r"[\s,]", "", d):
        raise ValueError("path data has characters other than m, l, h, v, z and numbers")
    rings: list[list[Point]] = []
    x = y = start_x = start_y = 0.0
    command = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in "mlhvz":
            command = token
            i += 1
            if token == "z":
                x, y = start_x, start_y
            continue
        if command == "m":
            x += float(token)
            y += float(tokens[i + 1])
            start_x, start_y = x, y
            rings.append([])
            command = "l"  # further pairs after a moveto are linetos
            i += 2
        elif command == "l":
            x += float(token)
            y += float(tokens[i + 1])
            i += 2
        elif command == "h":
            x += float(token)
            i += 1
        elif command == "v":
            y += float(token)
            i += 1
        else:
            raise ValueError(f"number without a command at token {i}")
        rings[-1].append((x, y))
    return rings


def ring_area(ring: list[Point]) -> float:
    """The area enclosed by one ring (shoelace formula), always positive."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


def path_area(d: str) -> float:
    """The total area of a path's rings, in map units squared."""
    return sum(ring_area(ring) for ring in path_rings(d))
