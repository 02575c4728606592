"""The map of a "Find X on the map" question: it names no state, the server judges the spot,
and a keyboard reaches every state (P-H2, issue 18)."""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import pickmap
from trainer.cards import load_deck
from trainer.cards.geometry import path_rings

DECK = load_deck()
NAMES = [s.name for s in DECK]
POSTALS = [s.postal for s in DECK]
PUBLIC = {postal: shape.path for postal, shape in DECK.geometry.shapes.items()}


def _map(seed: int = 1) -> pickmap.PickMap:
    return pickmap.build(DECK, random.Random(seed))


def test_spots_number_the_fifty_states_in_page_order():
    pick = _map()
    assert [s.number for s in pick.spots] == list(range(1, 51))
    assert sorted(s.postal for s in pick.spots) == sorted(POSTALS)
    assert [s.postal for s in pick.spots] != DECK.geometry.west_to_east()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**62))
def test_what_the_page_shows_names_no_state(seed):
    pick = _map(seed)
    shown = " ".join(
        [pick.transform, str(pick.start)]
        + [f"{s.number} {s.path} {s.moves} {s.borders} {s.description}" for s in pick.spots]
    )
    for name in NAMES:
        assert name not in shown
    # A postal code with no letter either side is a whole run of letters: one scan for all 50.
    assert not set(re.findall(r"[A-Za-z]+", shown)) & set(POSTALS)
    for spot in pick.spots:
        assert spot.path != PUBLIC[spot.postal] and spot.path not in PUBLIC.values()


def test_the_server_maps_a_posted_spot_to_its_state():
    pick = _map(7)
    for spot in pick.spots:
        assert pick.postal_of(str(spot.number)) == spot.postal
        assert pick.spot_of(spot.postal) == spot.number
    assert pick.postal_of(f" {pick.spots[3].number} ") == pick.spots[3].postal


@pytest.mark.parametrize(
    "answer",
    ["", "0", "51", "99", "100", "-1", "+1", "1.0", "CO", "Colorado", "²", "١٢", "1_0", "٣"],
)
def test_anything_but_a_spot_of_the_map_is_no_state(answer):
    assert _map().postal_of(answer) is None


def test_an_unknown_state_has_no_spot():
    with pytest.raises(KeyError):
        _map().spot_of("XX")


def test_each_spot_knows_its_neighbours_by_direction():
    pick = _map(3)
    numbers = {s.number for s in pick.spots}
    assert pick.start in numbers
    by_number = {s.number: s for s in pick.spots}
    for spot in pick.spots:
        assert spot.moves, f"spot {spot.number} has no move"
        assert {to for _, to in spot.moves} <= numbers - {spot.number}
        assert spot.borders == len(DECK.neighbours(spot.postal))
    colorado = by_number[pick.spot_of("CO")]
    moves = dict(colorado.moves)
    assert by_number[moves["north"]].postal == "WY" and by_number[moves["east"]].postal == "KS"
    assert colorado.description == "A state in the middle of the map. This state borders 6 states."


def test_the_keyboard_starts_near_the_middle_of_the_map():
    pick = _map()
    assert next(s for s in pick.spots if s.number == pick.start).postal in {
        "KS",
        "NE",
        "MO",
        "OK",
        "IA",
    }


@pytest.mark.parametrize(
    ("count", "sentence"),
    [(0, "borders no other state."), (1, "borders 1 state."), (8, "borders 8 states.")],
)
def test_borders_in_words(count, sentence):
    assert pickmap.borders_sentence(count) == f"This state {sentence}"


def test_the_map_looks_the_same_through_its_transform():
    pick = _map(11)
    a, _, _, d, e, f = (
        float(v) for v in re.fullmatch(r"matrix\(([^)]*)\)", pick.transform).group(1).split()
    )
    for spot in pick.spots[:5]:
        drawn = [(a * x + e, d * y + f) for ring in path_rings(spot.path) for x, y in ring]
        public = [p for ring in path_rings(PUBLIC[spot.postal]) for p in ring]
        assert all(
            abs(x - px) <= 0.06 and abs(y - py) <= 0.06
            for (x, y), (px, py) in zip(drawn, public, strict=True)
        )


# --- A page of Map cards (Dashing States) --------------------------------------------------


def _matrix(transform: str):
    """The point map of an SVG ``matrix(a 0 0 d e f)`` transform."""
    a, _, _, d, e, f = (
        float(v) for v in re.fullmatch(r"matrix\(([^)]*)\)", transform).group(1).split()
    )
    return lambda point: (a * point[0] + e, d * point[1] + f)


def _drawn_like(points: list[tuple[float, float]], public: str) -> bool:
    """``points`` are the public outline's, within the rounding of one decimal."""
    expected = [p for ring in path_rings(public) for p in ring]
    return all(
        abs(x - px) <= 0.06 and abs(y - py) <= 0.06
        for (x, y), (px, py) in zip(points, expected, strict=True)
    )


CARDS = ["RI", "CO", "HI", "TX", "DE"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**62))
def test_each_card_of_a_page_has_its_own_drawing_over_the_shared_map(seed):
    """P-H2 for a page of Map cards: the shared outlines in a seeded order through the page's
    stretch, and each red state through its card's own: no red outline is the public one, the
    shared one or another card's, and no page shows a name or a postal code."""
    drawing = pickmap.draw_cards(DECK, CARDS, random.Random(seed))
    assert len(drawing.cards) == len(CARDS)
    shared = {spot.postal: spot.path for spot in drawing.base.spots}
    reds = [card.path for card in drawing.cards]
    assert len(set(reds)) == len(CARDS)
    assert len(
        {card.transform for card in drawing.cards} | {card.base_transform for card in drawing.cards}
    ) == 2 * len(CARDS)
    for postal, card in zip(CARDS, drawing.cards):
        assert card.path != PUBLIC[postal] and card.path != shared[postal]
        assert card.path not in PUBLIC.values() and card.path not in shared.values()
    shown = " ".join(
        [card.path + card.transform + card.base_transform for card in drawing.cards]
        + list(shared.values())
    )
    assert not any(name in shown for name in NAMES)
    assert not set(re.findall(r"[A-Za-z]+", shown)) & set(POSTALS)  # no code as a word


def test_a_card_draws_its_red_state_and_the_shared_map_where_the_map_has_them():
    drawing = pickmap.draw_cards(DECK, CARDS, random.Random(5))
    shared = {spot.postal: spot.path for spot in drawing.base.spots}
    for postal, card in zip(CARDS, drawing.cards):
        to_map, shared_to_card = _matrix(card.transform), _matrix(card.base_transform)
        assert _drawn_like(
            [to_map(p) for ring in path_rings(card.path) for p in ring], PUBLIC[postal]
        )
        for other in ("CO", "WA", postal):
            points = [to_map(shared_to_card(p)) for ring in path_rings(shared[other]) for p in ring]
            assert _drawn_like(points, PUBLIC[other]), other


def test_a_page_of_cards_is_drawn_again_the_same_from_the_same_seed():
    first, again = (pickmap.draw_cards(DECK, CARDS, random.Random(9)) for _ in range(2))
    assert [c.path for c in first.cards] == [c.path for c in again.cards]
    assert [s.path for s in first.base.spots] == [s.path for s in again.base.spots]
    other = pickmap.draw_cards(DECK, CARDS, random.Random(10))
    assert [s.postal for s in other.base.spots] != [s.postal for s in first.base.spots], (
        "the shared outlines' order is the page's own"
    )


def _distance_to_segment(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _inside(p, ring) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(ring[-1:] + ring[:-1], ring, strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_every_state_too_small_to_tap_has_a_target_clear_of_every_state():
    """P-M13: the nine states whose Map card gets a call-out each have a round target, in the sea
    and clear of every state's outline and of each other, inside the map; Hawaii's by its inset."""
    placed = pickmap.targets(DECK)
    assert set(placed) == {s.postal for s in DECK if DECK.map_card(s.postal).needs_callout}
    assert len(placed) == 9
    r = pickmap.TARGET_RADIUS
    _, _, width, height = (float(v) for v in DECK.geometry.view_box.split())
    rings = [ring for shape in DECK.geometry.shapes.values() for ring in path_rings(shape.path)]
    centres = []
    for postal, (x, y, tx, ty) in placed.items():
        assert (x, y) == DECK.geometry.shapes[postal].centroid
        assert r <= tx <= width - r and r <= ty <= height - r
        assert not any(_inside((tx, ty), ring) for ring in rings), f"{postal}'s target is on land"
        clearance = min(
            _distance_to_segment((tx, ty), a, b)
            for ring in rings
            for a, b in zip(ring[-1:] + ring[:-1], ring, strict=True)
        )
        assert clearance > r, f"{postal}'s target touches a state"
        centres.append((tx, ty))
    for i, a in enumerate(centres):
        for b in centres[i + 1 :]:
            assert math.dist(a, b) > 2 * r
    # The column's lines do not cross: north to south in the same order as the states.
    column = sorted((y, ty) for postal, (_, y, _, ty) in placed.items() if postal != "HI")
    assert [ty for _, ty in column] == sorted(ty for _, ty in column)
