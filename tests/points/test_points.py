"""Points reward knowing, not luck or speed (P-E1)."""

from __future__ import annotations

import pytest

from trainer import points
from trainer.facts import Form
from trainer.facts.answers import Verdict


@pytest.mark.parametrize(
    ("verdict", "form", "earned"),
    [
        (Verdict.RIGHT, Form.TYPED, 10),
        (Verdict.RIGHT, Form.MAP_CLICK, 10),
        (Verdict.RIGHT, Form.CHOICE, 4),
        (Verdict.CLOSE, Form.TYPED, 5),
        (Verdict.WRONG, Form.TYPED, 0),
        (Verdict.WRONG, Form.MAP_CLICK, 0),
        (Verdict.WRONG, Form.CHOICE, 0),
    ],
)
def test_points_by_verdict_and_form(verdict, form, earned):
    assert points.points_for(verdict, form) == earned


def test_stored_strings_are_read_as_the_enums():
    """The review log stores the verdict and form as text."""
    assert points.points_for("right", "typed") == points.RECALLED
    assert points.points_for("close", "choice") == points.PICKED
    with pytest.raises(ValueError):
        points.points_for("lucky", "typed")


def test_recalling_earns_more_than_picking_and_a_miss_earns_nothing():
    assert points.RECALLED > points.CLOSE > 0
    assert points.RECALLED > points.PICKED > 0
    # A guess among four options earns, on average, a quarter of a pick: far less than knowing.
    assert points.PICKED / 4 < points.RECALLED / 2


def test_a_tally_adds_the_answers_and_says_the_best_possible():
    tally = points.tally(
        [
            (Verdict.RIGHT, Form.TYPED),
            (Verdict.RIGHT, Form.CHOICE),
            (Verdict.CLOSE, Form.TYPED),
            (Verdict.WRONG, Form.MAP_CLICK),  # a miss or "I don't know"
        ]
    )
    assert tally == points.Tally(points=19, scoring=3, best=34)


def test_an_empty_round_has_no_points():
    assert points.tally([]) == points.Tally(points=0, scoring=0, best=0)


def test_points_take_no_time():
    """Speed never counts: nothing about time is an input."""
    import inspect

    assert list(inspect.signature(points.points_for).parameters) == ["verdict", "form"]
