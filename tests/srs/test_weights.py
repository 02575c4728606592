"""A student's own FSRS-6 weights in the scheduler (ruling P-M10): scheduling, predicted recall,
the forgetting curve and rescheduling under new weights, at fixed UTC times."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from tests.fit.simulated import forgetful_weights
from trainer import srs
from trainer.srs import Memory, MemoryState, Rating

UTC = dt.UTC
T0 = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
NEW_YORK = "America/New_York"


def steep() -> srs.Weights:
    """The standard set with a steeper forgetting curve (decay 0.5 instead of 0.1542)."""
    w = list(srs.DEFAULT_WEIGHTS)
    w[20] = 0.5
    return srs.check_weights(w)


def test_no_weights_are_the_standard_ones():
    """P-M10: None and the standard set schedule and predict alike."""
    memory = srs.schedule(srs.new_memory(T0), Rating.GOOD, T0, seed="s", time_zone="UTC")
    assert (
        srs.schedule(
            srs.new_memory(T0),
            Rating.GOOD,
            T0,
            seed="s",
            time_zone="UTC",
            weights=srs.DEFAULT_WEIGHTS,
        )
        == memory
    )
    later = T0 + dt.timedelta(days=5)
    assert srs.retrievability(memory, later, "UTC") == srs.retrievability(
        memory, later, "UTC", srs.DEFAULT_WEIGHTS
    )
    assert srs.curve(None) == srs.curve(srs.DEFAULT_WEIGHTS)


def test_a_students_weights_change_the_schedule():
    """P-M10: a forgetful student's first Good gives a shorter memory and an earlier due day."""
    standard = srs.schedule(srs.new_memory(T0), Rating.GOOD, T0, seed="s", time_zone="UTC")
    own = srs.schedule(
        srs.new_memory(T0), Rating.GOOD, T0, seed="s", time_zone="UTC", weights=forgetful_weights()
    )
    assert own.stability == pytest.approx(forgetful_weights()[2])
    assert standard.stability == pytest.approx(srs.DEFAULT_WEIGHTS[2])


def test_the_curve_is_the_weights_decay_and_recall_is_0_9_after_one_stability():
    """P-M10: recall is (1 + F t / S) ** D with D = -w20 and F such that recall is 0.9 at t = S."""
    for weights in (None, steep(), forgetful_weights()):
        factor, decay = srs.curve(weights)
        assert decay == -(weights or srs.DEFAULT_WEIGHTS)[20]
        assert srs.recall_after(7.0, 7, weights) == pytest.approx(0.9)
        assert srs.recall_after(7.0, 20, weights) == (1 + factor * 20 / 7.0) ** decay
    # A steeper decay forgets faster after the stability, and the queue's recall follows it.
    assert srs.recall_after(7.0, 30, steep()) < srs.recall_after(7.0, 30)
    memory = Memory(MemoryState.REVIEW, None, 7.0, 5.0, T0, T0)
    at = T0 + dt.timedelta(days=30)
    assert srs.retrievability(memory, at, "UTC", steep()) == srs.recall_after(7.0, 30, steep())
    assert srs.recall(7.0, T0, at, "UTC", steep()) == srs.recall_after(7.0, 30, steep())


@pytest.mark.parametrize(
    "weights, problem",
    [
        (srs.DEFAULT_WEIGHTS[:20], "21 weights"),
        ((*srs.DEFAULT_WEIGHTS[:5], math.nan, *srs.DEFAULT_WEIGHTS[6:]), "finite"),
        ((*srs.DEFAULT_WEIGHTS[:20], 0.9), "decay"),
        ((*srs.DEFAULT_WEIGHTS[:20], 0.05), "decay"),
    ],
)
def test_a_set_that_is_not_fsrs_6_is_refused(weights, problem):
    with pytest.raises(ValueError, match=problem):
        srs.check_weights(weights)


def test_the_queue_and_practice_take_the_weights():
    """P-M10: the queue ranks by the student's own predicted recall (one curve for all their
    facts, so the order of two facts is the same; the weights reach the ranking)."""
    day = srs.study_day(T0 + dt.timedelta(days=40), "UTC")
    now = day.start + dt.timedelta(hours=10)
    memories = {
        "CO:map": Memory(MemoryState.REVIEW, None, 30.0, 5.0, T0 + dt.timedelta(days=30), T0),
        "UT:map": Memory(
            MemoryState.REVIEW,
            None,
            3.0,
            5.0,
            T0 + dt.timedelta(days=3),
            T0 + dt.timedelta(days=20),
        ),
    }
    for weights in (None, steep()):
        assert srs.due_order(memories, now, day, weights) == ["UT:map", "CO:map"]
        assert srs.practice_order(memories, now, day, weights=weights) == ["UT:map", "CO:map"]
        assert srs.build_queue(
            memories, now, day, teaching_order=[], new_allowed=0, size=10, weights=weights
        ) == ["UT:map", "CO:map"]


def test_reschedule_puts_a_review_fact_where_the_new_weights_put_it():
    """P-M10: a fact in review gets the stability and difficulty given, and falls due at 4 a.m.
    local on its last review's study day plus the new interval (fuzzed from the seed)."""
    last = dt.datetime(2026, 3, 3, 2, 0, tzinfo=UTC)  # 21:00 EST, 2 March: study day 2 March
    memory = Memory(
        MemoryState.REVIEW, None, 20.0, 5.0, last + dt.timedelta(days=20), last, lapses=1, reps=4
    )
    again = srs.reschedule(
        memory, 4.0, 6.5, seed="refit:CO:map", time_zone=NEW_YORK, weights=forgetful_weights()
    )
    assert (again.stability, again.difficulty, again.last_review, again.lapses, again.reps) == (
        4.0,
        6.5,
        last,
        1,
        4,
    )
    assert again.state is MemoryState.REVIEW
    local = again.due.astimezone(srs._zone(NEW_YORK))
    assert (local.hour, local.minute) == (4, 0)
    days = (local.date() - dt.date(2026, 3, 2)).days
    assert 3 <= days <= 5  # about 4 days at 90% retention, give or take the fuzz
    # The same seed, the same due; and a longer memory falls due later.
    assert (
        srs.reschedule(
            memory, 4.0, 6.5, seed="refit:CO:map", time_zone=NEW_YORK, weights=forgetful_weights()
        )
        == again
    )
    longer = srs.reschedule(
        memory, 40.0, 6.5, seed="refit:CO:map", time_zone=NEW_YORK, weights=forgetful_weights()
    )
    assert longer.due > again.due
    # A higher desired retention brings it sooner.
    keen = srs.reschedule(
        memory, 40.0, 6.5, desired_retention=0.97, seed="refit:CO:map", time_zone=NEW_YORK
    )
    assert keen.due < longer.due


def test_reschedule_keeps_a_fact_in_steps_where_it_is_and_leaves_a_new_fact_alone():
    """P-M10: learning steps run in real time from the answer: only the memory's numbers change."""
    # A fact left in a step by the app before P-M12 (no steps since).
    learning = srs.Memory(MemoryState.LEARNING, 0, 0.212, 6.4, T0 + dt.timedelta(minutes=1), T0)
    assert learning.in_steps
    again = srs.reschedule(
        learning, 0.1, 8.0, seed="refit:x", time_zone="UTC", weights=forgetful_weights()
    )
    assert (again.due, again.step, again.state) == (learning.due, learning.step, learning.state)
    assert (again.stability, again.difficulty) == (0.1, 8.0)
    fresh = srs.new_memory(T0)
    assert srs.reschedule(fresh, 1.0, 5.0, time_zone="UTC") == fresh
