"""A map to find a named state on that names no state: numbered spots, a stretch, compass moves.

"Find Colorado on the map" is only a question if the page does not say which outline is
Colorado. So each question's map gives its 50 outlines opaque numbers (spots, a seeded
permutation), draws them in the order of those numbers, rewrites every path through a seeded
stretch (undone by one SVG transform, so it looks the same but matches no public outline byte
for byte), and tells a keyboard user only where each move goes, how many states the state there
borders and in which part of the map it is. The server keeps the spot -> state table and judges.

A page of several Map cards (Dashing States) draws its map the same way once (:func:`draw_cards`)
and each card's red state through the card's own stretch, so no card's red outline is the public
one, the shared one or another card's.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from trainer.cards import Deck
from trainer.cards.geometry import COMPASS, Stretch, compass_neighbours, rewrite_path

#: A posted spot: one or two ASCII digits (``"²"`` or ``"٣"`` are not spots).
_SPOT = re.compile(r"[0-9]{1,2}")


@dataclass(frozen=True)
class Spot:
    """One clickable outline of a pick map. ``postal`` stays on the server; the rest is shown."""

    number: int
    postal: str
    #: The public outline (never shown as it is) and the stretch to draw it through.
    outline: str
    stretch: Stretch
    #: (direction, spot number) for each compass direction that has a state, clockwise from north.
    moves: tuple[tuple[str, int], ...]
    #: How many states this one borders (G5).
    borders: int
    #: The part of the map it is in: "north-west", "middle", "south"...
    where: str

    @cached_property
    def path(self) -> str:
        """The outline drawn through the map's stretch: only pages need it, not judging."""
        return rewrite_path(self.outline, self.stretch)

    @property
    def description(self) -> str:
        """What a screen reader hears on it: where it is and its borders, never its name."""
        return f"A state in the {self.where} of the map. {borders_sentence(self.borders)}"


@dataclass(frozen=True)
class PickMap:
    """One question's map: its spots in page order, the stretch they are drawn through and the
    transform that undoes it, and the spot a keyboard user starts on (the state nearest the
    middle of the map). A Map card question draws its map from one too, without the spots."""

    spots: tuple[Spot, ...]
    #: The stretch every outline is drawn through, and the SVG transform that undoes it.
    stretch: Stretch
    transform: str
    start: int

    def postal_of(self, answer: str) -> str | None:
        """The state at the posted spot, or None when ``answer`` is not a spot of this map."""
        text = answer.strip()
        if not _SPOT.fullmatch(text):
            return None
        number = int(text)
        return next((spot.postal for spot in self.spots if spot.number == number), None)

    def spot_of(self, postal: str) -> int:
        """The spot of ``postal`` (for tests and the server's own use).

        Raises:
            KeyError: ``postal`` is not on the map.
        """
        for spot in self.spots:
            if spot.postal == postal:
                return spot.number
        raise KeyError(postal)


#: Where the small states' round targets stand: a column in the Atlantic, from north to south so
#: their lines do not cross, and Hawaii's in the Pacific just above its inset.
_TARGET_COLUMN_X = 952.0
_TARGET_COLUMN_TOP = 150.0
_TARGET_STEP = 44.0
_HAWAII_TARGET = (255.0, 498.0)
#: A target's radius in map units: 40 units across is 26 CSS px on a map drawn 40rem wide.
TARGET_RADIUS = 20.0


@cache
def targets(deck: Deck) -> dict[str, tuple[float, float, float, float]]:
    """The states too small to tap reliably on a phone (those whose Map card gets a call-out) and
    a round target for each: ``postal -> (x, y, tx, ty)``, the state's centre and the target's, in
    map units. A click on a target is a click on its state."""
    shapes = deck.geometry.shapes
    small = [postal for postal in shapes if deck.map_card(postal).needs_callout]
    placed: dict[str, tuple[float, float, float, float]] = {}
    column = sorted((shapes[p].centroid[1], p) for p in small if p != "HI")
    for row, (_, postal) in enumerate(column):
        x, y = shapes[postal].centroid
        placed[postal] = (x, y, _TARGET_COLUMN_X, _TARGET_COLUMN_TOP + _TARGET_STEP * row)
    if "HI" in small:
        x, y = shapes["HI"].centroid
        placed["HI"] = (x, y, *_HAWAII_TARGET)
    return placed


def borders_sentence(count: int) -> str:
    """How many states a state borders, in words a screen reader speaks well."""
    if count == 0:
        return "This state borders no other state."
    return f"This state borders {count} state{'' if count == 1 else 's'}."


def build(deck: Deck, rng: random.Random) -> PickMap:
    """The pick map drawn from ``rng``: the same rng state gives the same map."""
    postals = sorted(deck.geometry.shapes)
    numbers = list(range(1, len(postals) + 1))
    rng.shuffle(numbers)
    number_of = dict(zip(postals, numbers))
    stretch = Stretch.drawn(rng)
    moves = _compass(deck)
    spots = [
        Spot(
            number=number_of[postal],
            postal=postal,
            outline=deck.geometry.shapes[postal].path,
            stretch=stretch,
            moves=tuple(
                (direction, number_of[moves[postal][direction]])
                for direction, _ in COMPASS
                if direction in moves[postal]
            ),
            borders=len(deck.neighbours(postal)),
            where=_where(deck)[postal],
        )
        for postal in postals
    ]
    spots.sort(key=lambda spot: spot.number)
    return PickMap(
        spots=tuple(spots),
        stretch=stretch,
        transform=stretch.svg_inverse(),
        start=number_of[_middle(deck)],
    )


@cache
def _compass(deck: Deck) -> dict[str, dict[str, str]]:
    centroids = {postal: shape.centroid for postal, shape in deck.geometry.shapes.items()}
    borders = {state.postal: {n.postal for n in deck.neighbours(state)} for state in deck}
    return compass_neighbours(centroids, borders)


def _view_box(deck: Deck) -> tuple[float, float, float, float]:
    x, y, width, height = (float(v) for v in deck.geometry.view_box.split())
    return x, y, width, height


@cache
def _where(deck: Deck) -> dict[str, str]:
    """Each state's part of the map, by thirds of the view box."""
    x, y, width, height = _view_box(deck)
    result = {}
    for postal, shape in deck.geometry.shapes.items():
        cx, cy = shape.centroid
        column = min(2, max(0, int(3 * (cx - x) / width)))
        row = min(2, max(0, int(3 * (cy - y) / height)))
        north_south = ("north", "", "south")[row]
        west_east = ("west", "", "east")[column]
        result[postal] = "-".join(part for part in (north_south, west_east) if part) or "middle"
    return result


@cache
def _middle(deck: Deck) -> str:
    x, y, width, height = _view_box(deck)
    centre = (x + width / 2, y + height / 2)
    shapes = deck.geometry.shapes
    return min(shapes, key=lambda postal: (math.dist(centre, shapes[postal].centroid), postal))


@dataclass(frozen=True)
class CardDrawing:
    """One Map card of a page of several, drawn over the page's shared outlines (a :class:`PickMap`
    drawn once): the red state through the card's own stretch, so its outline is neither the
    public one nor the shared one, and the two transforms that draw the card."""

    #: The red state's public outline (never shown as it is) and the card's stretch.
    outline: str
    stretch: Stretch
    #: The SVG transform that takes the card's units back to the map's.
    transform: str
    #: The SVG transform that puts the shared outlines (drawn through the page's stretch) in the card's units.
    base_transform: str

    @cached_property
    def path(self) -> str:
        """The red state's outline drawn through the card's stretch."""
        return rewrite_path(self.outline, self.stretch)


@dataclass(frozen=True)
class CardsDrawing:
    """A page of Map cards: the 50 outlines drawn once (``base``: in its spot order, through its
    stretch, undone by its transform) and each card's drawing, in the order of the cards."""

    base: PickMap
    cards: tuple[CardDrawing, ...]


def draw_cards(deck: Deck, postals: Sequence[str], rng: random.Random) -> CardsDrawing:
    """The drawing of a page of the Map cards of ``postals`` from ``rng``: the shared map first,
    then each card's own stretch. The same rng state gives the same drawing, so a page shown
    again looks the same and gives nothing new to compare."""
    base = build(deck, rng)
    cards = []
    for postal in postals:
        stretch = Stretch.drawn(rng)
        cards.append(
            CardDrawing(
                outline=deck.geometry.shapes[postal].path,
                stretch=stretch,
                transform=stretch.svg_inverse(),
                base_transform=stretch.svg_from(base.stretch),
            )
        )
    return CardsDrawing(base=base, cards=tuple(cards))
