"""The daily amount's arithmetic: bounds, today's study time, progress, and the class comparison (P-D1, P-D2)."""

from __future__ import annotations

import pytest

from trainer import daily
from trainer.daily import DailyAmount, Unit


@pytest.mark.parametrize(
    ("amount", "unit"),
    [(5, Unit.ANSWERS), (200, Unit.ANSWERS), (5, Unit.MINUTES), (90, Unit.MINUTES)],
)
def test_an_amount_within_its_units_bounds_is_accepted_p_d1(amount, unit):
    assert DailyAmount(amount, unit).amount == amount


@pytest.mark.parametrize(
    ("amount", "unit"),
    [
        (4, Unit.ANSWERS),
        (201, Unit.ANSWERS),
        (4, Unit.MINUTES),
        (91, Unit.MINUTES),
        (120, Unit.MINUTES),
    ],
)
def test_an_amount_outside_its_units_bounds_is_refused_p_d1(amount, unit):
    with pytest.raises(ValueError):
        DailyAmount(amount, unit)


def test_the_default_is_40_answers_p_d1():
    assert DailyAmount(40, Unit.ANSWERS) == daily.DEFAULT
    assert daily.DEFAULT.text() == "40 answers"


@pytest.mark.parametrize(
    ("amount", "unit", "expected"),
    [
        (40, "answers", DailyAmount(40, Unit.ANSWERS)),
        (20, "minutes", DailyAmount(20, Unit.MINUTES)),
        (None, "answers", None),
        (40, None, None),
        (40, "hours", None),
        (300, "answers", None),
    ],
)
def test_a_stored_pair_is_an_amount_only_when_whole_and_in_bounds(amount, unit, expected):
    assert daily.amount_or_none(amount, unit) == expected


@pytest.mark.parametrize(
    ("duration_ms", "seconds"),
    [
        (4_000, 4 + 5),  # its own time, and 5 s to read the card
        (None, 10 + 5),  # unknown: 10 s
        (0, 10 + 5),
        (119_000, 119 + 5),
        (300_000, 120 + 5),  # at most 2 minutes: a question left open while away
    ],
)
def test_an_answer_counts_its_time_or_an_estimate_plus_reading_the_card_p_d1(duration_ms, seconds):
    assert daily.answer_seconds(duration_ms) == pytest.approx(seconds)


def test_progress_in_answers_counts_every_answer():
    progress = daily.progress(DailyAmount(40, Unit.ANSWERS), [4_000] * 18)
    assert (progress.done, progress.left, progress.answers_left, progress.reached) == (
        18,
        22,
        22,
        False,
    )
    done = daily.progress(DailyAmount(40, Unit.ANSWERS), [None] * 41)
    assert (done.done, done.left, done.answers_left, done.reached) == (41, 0, 0, True)


def test_progress_in_minutes_rounds_down_and_estimates_the_answers_left():
    # 48 answers of 10 s each, 5 s of reading: 720 s = 12 minutes.
    progress = daily.progress(DailyAmount(20, Unit.MINUTES), [10_000] * 48)
    assert (progress.done, progress.left, progress.reached) == (12, 8, False)
    assert progress.answers_left == 32  # 480 s left at 15 s an answer
    # 299 s is 4 whole minutes: one second short of 5 minutes is not 5 minutes.
    under = daily.progress(
        DailyAmount(5, Unit.MINUTES), [15_000] * 14 + [14_000]
    )  # 14*20 + 19 = 299 s
    assert (under.done, under.reached, under.left, under.answers_left) == (4, False, 1, 1)
    over = daily.progress(
        DailyAmount(5, Unit.MINUTES), [15_000] * 19 + [4_000]
    )  # 19*20 + 9 = 389 s
    assert (over.done, over.reached, over.left, over.answers_left) == (6, True, 0, 0)


def test_no_answers_is_nothing_done():
    progress = daily.progress(DailyAmount(10, Unit.MINUTES), [])
    assert (progress.done, progress.seconds, progress.left, progress.answers_left) == (0, 0, 10, 40)


def test_between_classes_the_most_study_wins_compared_as_time_p_d2():
    assert daily.SECONDS_PER_ANSWER == 15
    # 60 answers are 15 minutes: more than 12 minutes, less than 20.
    assert daily.highest(
        [DailyAmount(60, Unit.ANSWERS), DailyAmount(12, Unit.MINUTES)]
    ) == DailyAmount(60, Unit.ANSWERS)
    assert daily.highest(
        [DailyAmount(60, Unit.ANSWERS), DailyAmount(20, Unit.MINUTES)]
    ) == DailyAmount(20, Unit.MINUTES)
    assert daily.highest(
        [DailyAmount(30, Unit.ANSWERS), DailyAmount(50, Unit.ANSWERS)]
    ) == DailyAmount(50, Unit.ANSWERS)
    assert daily.highest([]) is None


@pytest.mark.parametrize("order", [1, -1])
def test_a_tie_between_units_goes_to_answers_p_d2(order):
    tied = [DailyAmount(40, Unit.ANSWERS), DailyAmount(10, Unit.MINUTES)][::order]
    assert daily.highest(tied) == DailyAmount(40, Unit.ANSWERS)
