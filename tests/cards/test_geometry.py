"""Map geometry: paths rewritten through a stretch, and compass moves between states."""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import load_deck
from trainer.cards.geometry import (
    COMPASS,
    CONE_HALF_ANGLE,
    MAX_JUMP,
    Stretch,
    compass_neighbours,
    path_rings,
    rewrite_path,
)

DECK = load_deck()
SHAPES = DECK.geometry.shapes
CENTROIDS = {postal: shape.centroid for postal, shape in SHAPES.items()}
BORDERS = {s.postal: {n.postal for n in DECK.neighbours(s)} for s in DECK}


def _inverse(transform: str):
    """The point map of an SVG ``matrix(a b c d e f)`` transform."""
    a, b, c, d, e, f = (
        float(v) for v in re.fullmatch(r"matrix\(([^)]*)\)", transform).group(1).split()
    )
    return lambda x, y: (a * x + c * y + e, b * x + d * y + f)


# --- Rewriting paths ------------------------------------------------------------------------


@pytest.mark.parametrize("postal", sorted(SHAPES))
def test_a_rewritten_outline_is_the_stretched_outline_and_not_the_public_one(postal):
    stretch = Stretch.drawn(random.Random(postal))
    public = SHAPES[postal].path
    rewritten = rewrite_path(public, stretch)
    assert rewritten != public and rewritten not in public and public not in rewritten
    assert re.fullmatch(r"[mlz0-9.\- ]+", rewritten)
    old, new = path_rings(public), path_rings(rewritten)
    assert [len(r) for r in old] == [len(r) for r in new]
    back = _inverse(stretch.svg_inverse())
    for ring_old, ring_new in zip(old, new):
        for p, q in zip(ring_old, ring_new):
            sx, sy = stretch.apply(p)
            assert abs(q[0] - sx) <= 0.051 and abs(q[1] - sy) <= 0.051, "rounding never adds up"
            bx, by = back(*q)
            assert abs(bx - p[0]) <= 0.06 and abs(by - p[1]) <= 0.06, (
                "the transform undoes the stretch"
            )


def test_the_identity_stretch_keeps_every_point():
    d = SHAPES["CO"].path
    for old, new in zip(
        path_rings(d), path_rings(rewrite_path(d, Stretch(1, 1, 0, 0))), strict=True
    ):
        assert [c for p in new for c in p] == pytest.approx([c for p in old for c in p], abs=1e-9)
    assert _inverse(Stretch(1, 1, 0, 0).svg_inverse())(3.5, 4.25) == (3.5, 4.25)


def test_rings_after_the_first_move_from_the_previous_rings_start():
    d = "m10 10l5 0 0 5z m20 0l1 1z"  # the second ring starts at (30, 10)
    rewritten = rewrite_path(d, Stretch(2, 1, 1, 0))
    assert path_rings(rewritten) == [[(21, 10), (31, 10), (31, 15)], [(61, 10), (63, 11)]]
    assert rewritten == "m21 10l10 0 0 5zm40 0l2 1z"


def test_small_steps_are_written_shortly():
    assert rewrite_path("m.5 2l-.3 0 10.1-.2z", Stretch(1, 1, 0, 0)) == "m.5 2l-.3 0 10.1-.2z"


@settings(max_examples=100, deadline=None)
@given(a=st.integers(min_value=0, max_value=2**62), b=st.integers(min_value=0, max_value=2**62))
def test_svg_from_takes_one_stretchs_drawing_to_anothers(a, b):
    """A Dashing States card puts the page's shared outlines (drawn through one stretch) in its
    own stretch's units; its own inverse then takes them back to the map."""
    shared, own = Stretch.drawn(random.Random(a)), Stretch.drawn(random.Random(b))
    into_own, back = _inverse(own.svg_from(shared)), _inverse(own.svg_inverse())
    for point in [
        (0.0, 0.0),
        (975.0, 610.0),
        (487.5, 120.25),
    ]:  # nine digits: far below a drawing's .01
        assert into_own(*shared.apply(point)) == pytest.approx(own.apply(point), abs=1e-4)
        assert back(*into_own(*shared.apply(point))) == pytest.approx(point, abs=1e-4)
    assert (
        own.svg_from(Stretch(1, 1, 0, 0))
        == "matrix("
        + " ".join(f"{v:.9g}" for v in (own.sx, 0.0, 0.0, own.sy, own.tx, own.ty))
        + ")"
    )
    assert Stretch(1, 1, 0, 0).svg_from(own) == own.svg_inverse()


def test_an_unclosed_path_is_refused():
    with pytest.raises(ValueError):
        rewrite_path("m1 1l2 2", Stretch(1, 1, 0, 0))
    with pytest.raises(ValueError):
        Stretch(0, 1, 0, 0)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64))
def test_a_drawn_stretch_is_slight_and_never_the_identity(seed):
    stretch = Stretch.drawn(random.Random(seed))
    for scale in (stretch.sx, stretch.sy):
        assert 0.01 <= abs(scale - 1) <= 0.06
    assert abs(stretch.tx) <= 12 and abs(stretch.ty) <= 12
    assert stretch == Stretch.drawn(random.Random(seed))


# --- Compass moves --------------------------------------------------------------------------

GRID = {f"{c}{r}": (100.0 * c, 100.0 * r) for c in range(3) for r in range(3)}  # y grows south


def test_on_a_grid_each_direction_goes_to_the_next_place_that_way():
    moves = compass_neighbours(GRID, {})
    assert moves["11"] == {
        "north": "10",
        "north-east": "20",
        "east": "21",
        "south-east": "22",
        "south": "12",
        "south-west": "02",
        "west": "01",
        "north-west": "00",
    }
    assert moves["00"] == {"east": "10", "south-east": "11", "south": "01"}


def test_a_bordering_place_wins_over_a_nearer_one():
    places = {"here": (0.0, 0.0), "near": (50.0, 0.0), "bordering": (200.0, 30.0)}
    assert compass_neighbours(places, {})["here"]["east"] == "near"
    assert compass_neighbours(places, {"here": {"bordering"}})["here"]["east"] == "bordering"


def test_a_place_that_does_not_border_is_too_far_beyond_the_longest_jump():
    places = {"here": (0.0, 0.0), "far": (MAX_JUMP + 1, 0.0)}
    assert compass_neighbours(places, {})["here"] == {}
    assert compass_neighbours(places, {"here": {"far"}})["here"] == {"east": "far"}


def test_ties_go_to_the_smaller_key_whatever_the_order():
    places = {"here": (0.0, 0.0), "b": (0.0, -10.0), "a": (0.0, -10.0)}
    assert compass_neighbours(places, {})["here"]["north"] == "a"
    assert compass_neighbours(dict(reversed(places.items())), {})["here"]["north"] == "a"


def test_every_state_can_move_and_every_move_lies_in_its_cone():
    moves = compass_neighbours(CENTROIDS, BORDERS)
    angles = dict(COMPASS)
    for here, out in moves.items():
        assert out, f"{here} has no move"
        for direction, there in out.items():
            (x0, y0), (x1, y1) = CENTROIDS[here], CENTROIDS[there]
            angle = math.degrees(math.atan2(y0 - y1, x1 - x0))
            assert abs((angle - angles[direction] + 180) % 360 - 180) < CONE_HALF_ANGLE
            assert there in BORDERS[here] or math.dist((x0, y0), (x1, y1)) <= MAX_JUMP


def test_the_four_arrow_keys_alone_reach_every_state_from_any_state():
    moves = compass_neighbours(CENTROIDS, BORDERS)
    for start in moves:
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for direction in ("north", "east", "south", "west"):
                there = moves[here].get(direction)
                if there and there not in seen:
                    seen.add(there)
                    todo.append(there)
        assert seen == set(moves), f"from {start} the arrows miss {sorted(set(moves) - seen)}"


def test_moves_follow_the_map():
    moves = compass_neighbours(CENTROIDS, BORDERS)
    assert moves["CO"]["north"] == "WY" and moves["CO"]["east"] == "KS"
    assert moves["CO"]["south"] == "NM" and moves["CO"]["west"] == "UT"
    assert "north-west" not in moves["ME"], "not from Maine to Washington"
