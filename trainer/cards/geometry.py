"""Reads the project's SVG map paths (relative m/l/h/v/z commands) back into points and areas,
rewrites them through a stretch, and finds each state's neighbour in every compass direction."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

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


# --- Rewriting a path through a stretch -----------------------------------------------------


@dataclass(frozen=True)
class Stretch:
    """An axis-aligned affine map of the plane: ``(x, y) -> (sx * x + tx, sy * y + ty)``.

    A question's pick map draws every outline through its own stretch and wraps them in the
    inverse (:meth:`svg_inverse`), so the map looks the same while no path is byte for byte the
    public outline served by the deck pages.
    """

    sx: float
    sy: float
    tx: float
    ty: float

    def __post_init__(self) -> None:
        if not (self.sx > 0 and self.sy > 0):
            raise ValueError("a stretch needs positive scales")

    @classmethod
    def drawn(cls, rng: random.Random) -> Stretch:
        """A stretch slightly different from the identity (1-6% in scale, up to 12 units off),
        never the identity itself."""

        def scale() -> float:
            return 1 + rng.choice((-1, 1)) * rng.uniform(0.01, 0.06)

        return cls(scale(), scale(), rng.uniform(-12, 12), rng.uniform(-12, 12))

    def apply(self, point: Point) -> Point:
        """Where ``point`` goes."""
        return (self.sx * point[0] + self.tx, self.sy * point[1] + self.ty)

    def svg_inverse(self) -> str:
        """An SVG ``transform`` value that takes stretched points back to where they were."""
        return _svg_matrix(1 / self.sx, 1 / self.sy, -self.tx / self.sx, -self.ty / self.sy)

    def svg_from(self, other: Stretch) -> str:
        """An SVG ``transform`` value that takes points drawn through ``other`` to where this
        stretch draws them.

        A page of Map cards draws the 50 outlines once through one stretch and each card's red
        state through the card's own: the card puts the shared outlines in its units with this.
        """
        sx, sy = self.sx / other.sx, self.sy / other.sy
        return _svg_matrix(sx, sy, self.tx - sx * other.tx, self.ty - sy * other.ty)


def _svg_matrix(sx: float, sy: float, tx: float, ty: float) -> str:
    """The SVG ``matrix(...)`` of ``(x, y) -> (sx * x + tx, sy * y + ty)``."""
    return "matrix(" + " ".join(f"{v:.9g}" for v in (sx, 0.0, 0.0, sy, tx, ty)) + ")"


def rewrite_path(d: str, stretch: Stretch) -> str:
    """``d`` drawn through ``stretch``, as relative m, l and z commands with one decimal, as the
    public outlines are written (a tenth of a map unit is a tenth of a pixel or less on a
    Chromebook; a second decimal made a map question's page a fifth larger, issue 25).

    Every point is stretched and rounded on its own and the steps are the differences of the
    rounded points, so rounding never adds up along a long border. A page with a map to click
    draws 50 outlines (some 9,000 points) this way, so the outline's rings are parsed once per
    path (:func:`_rings`) and the loop keeps to local names.

    Raises:
        ValueError: ``d`` is not a path of closed rings in relative m, l, h, v and z.
    """
    sx, sy, tx, ty = stretch.sx * 10, stretch.sy * 10, stretch.tx * 10, stretch.ty * 10
    number = _number
    parts: list[str] = []
    # The current point, in tenths; a ring starts from the previous ring's start.
    here_x = here_y = 0
    for ring in _rings(d):
        xs = [round(sx * x + tx) for x, _ in ring]
        ys = [round(sy * y + ty) for _, y in ring]
        parts.append("m" + _pair(xs[0] - here_x, ys[0] - here_y))
        if len(xs) > 1:
            out: list[str] = []
            for i in range(1, len(xs)):
                a = number(xs[i] - xs[i - 1])
                b = number(ys[i] - ys[i - 1])
                out.append(a if not out or a[0] == "-" else " " + a)
                out.append(b if b[0] == "-" else " " + b)
            parts.append("l" + "".join(out))
        parts.append("z")
        here_x, here_y = xs[0], ys[0]
    return "".join(parts)


@lru_cache(maxsize=256)
def _rings(d: str) -> tuple[tuple[Point, ...], ...]:
    """The rings of a closed path (:func:`path_rings`), parsed once per outline."""
    if d.count("z") != d.count("m"):
        raise ValueError("every ring of the path must be closed with z")
    return tuple(tuple(ring) for ring in path_rings(d))


@lru_cache(maxsize=65536)
def _number(tenths: int) -> str:
    """A number of tenths written shortly: 125 -> "12.5", 5 -> ".5", -3 -> "-.3", 20 -> "2"."""
    sign = "-" if tenths < 0 else ""
    whole, frac = divmod(abs(tenths), 10)
    text = f"{whole}.{frac}".rstrip("0").rstrip(".")
    if text.startswith("0."):
        text = text[1:]
    return sign + text


def _pair(dx: int, dy: int) -> str:
    return _joined([_number(dx), _number(dy)])


def _joined(numbers: list[str]) -> str:
    """Numbers written one after the other; a minus sign separates them, else a space."""
    out = numbers[0]
    for number in numbers[1:]:
        out += number if number.startswith("-") else " " + number
    return out


# --- Moving across the map by compass direction --------------------------------------------

#: The eight directions, clockwise from north, with their angle in degrees (east 0, north 90).
COMPASS: tuple[tuple[str, float], ...] = (
    ("north", 90.0),
    ("north-east", 45.0),
    ("east", 0.0),
    ("south-east", -45.0),
    ("south", -90.0),
    ("south-west", -135.0),
    ("west", 180.0),
    ("north-west", 135.0),
)
#: A neighbour in a direction lies less than this many degrees either side of it (a 90-degree cone).
CONE_HALF_ANGLE = 45.0
#: A state that does not border this one is a neighbour only this close (map units; the map is
#: 975 wide): far enough to reach Alaska and Hawaii in their insets, not from Maine to Washington.
MAX_JUMP = 300.0


def compass_neighbours(
    centroids: Mapping[str, Point], borders: Mapping[str, Collection[str]]
) -> dict[str, dict[str, str]]:
    """For each place, the place to move to in each compass direction that has one.

    The candidates in a direction are the places whose centre lies less than 45 degrees off it (map
    y grows southwards). A bordering candidate is preferred to any other; among those preferred,
    the nearest wins, distance counted longer the further it is off the direction's axis, so
    "east" from a state goes to the state beside it rather than one diagonally off. A place that
    does not border this one counts only within :data:`MAX_JUMP`. Ties go to the smaller key, so
    the result does not depend on the order of ``centroids``.
    """
    result: dict[str, dict[str, str]] = {}
    for here in centroids:
        near = set(borders.get(here, ()))
        moves = {direction: _towards(here, angle, centroids, near) for direction, angle in COMPASS}
        result[here] = {direction: there for direction, there in moves.items() if there is not None}
    return result


def _towards(
    here: str, angle: float, centroids: Mapping[str, Point], near: Collection[str]
) -> str | None:
    """The place to move to from ``here`` towards ``angle`` (degrees, east 0, north 90), if any."""
    x0, y0 = centroids[here]
    best: tuple[bool, float, str] | None = None
    for there, (x1, y1) in centroids.items():
        dx, dy = x1 - x0, y0 - y1  # dy up: north is positive
        distance = math.hypot(dx, dy)
        if there == here or distance == 0:
            continue
        off = abs((math.degrees(math.atan2(dy, dx)) - angle + 180) % 360 - 180)
        if off >= CONE_HALF_ANGLE or (there not in near and distance > MAX_JUMP):
            continue
        rank = (there not in near, distance * (1 + off / CONE_HALF_ANGLE), there)
        if best is None or rank < best:
            best = rank
    return None if best is None else best[2]
