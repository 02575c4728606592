"""The assignment core: activities, scopes, dates and progress (rulings P-A1..P-A4)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer import srs
from trainer.assignments import (
    ACTIVITIES,
    Review,
    Scope,
    Status,
    count_progress,
    local_dates,
    recall_at,
    recall_progress,
    scope_problems,
    window,
)
from trainer.cards import load_deck
from trainer.facts import Facet
from trainer.games import REGISTRY

UTC = dt.UTC
START = dt.datetime(2026, 11, 2, 5, tzinfo=UTC)
DUE = dt.datetime(2026, 11, 9, 5, tzinfo=UTC)
#: The student's time zone: recall counts their study days (P-M1).
ZONE = "America/Chicago"


@pytest.fixture(scope="module")
def deck():
    return load_deck()


def test_every_mode_and_every_card_game_can_be_assigned():
    assert {"review", "state-iq", "dashing-states", "border-up"} <= set(ACTIVITIES)
    for slug in REGISTRY.games:
        activity = ACTIVITIES[slug]
        assert activity.card_game and not activity.follows_scope  # P-A2
        assert activity.mode == slug.replace("-", "_")
    assert ACTIVITIES["review"].facets == frozenset(Facet)
    assert ACTIVITIES["dashing-states"].facets == {Facet.MAP, Facet.CAPITAL}
    assert (
        Facet.ZONE in ACTIVITIES["geopower-toss"].facets
        and Facet.ZONE not in ACTIVITIES["geoplunge-51"].facets
    )


def test_a_scope_adds_an_area_and_hand_picked_states(deck):
    """P-A1: a region and hand-picked states add up."""
    scope = Scope(frozenset({Facet.CAPITAL}), "region:west", frozenset({"TX"}))
    postals = scope.postals(deck)
    assert "TX" in postals and "CA" in postals and "NY" not in postals
    assert len(postals) == 14  # the 13 western states and Texas
    facts = scope.facts(deck, [ACTIVITIES["review"]])
    assert {f.facet for f in facts} == {Facet.CAPITAL} and {f.postal for f in facts} == postals
    assert scope.describe(deck) == "Capitals of the West and Texas"
    assert Scope().describe(deck) == "Everything about all 50 states"
    assert Scope.from_json(scope.to_json()) == scope


def test_an_empty_scope_means_what_the_activities_ask(deck):
    scope = Scope()
    assert scope.is_everything and scope.postals(deck) is None
    facts = scope.facts(deck, [ACTIVITIES["border-up"], ACTIVITIES["dashing-states"]])
    assert len(facts) == 150 and {f.facet for f in facts} == {
        Facet.BORDERS,
        Facet.MAP,
        Facet.CAPITAL,
    }


def test_a_scope_an_activity_never_asks_about_is_refused(deck):
    problems = scope_problems(
        [ACTIVITIES["dashing-states"]], Scope(frozenset({Facet.POSTAL})), deck
    )
    assert problems == [
        "Dashing States does not ask about Postal codes: it asks about Map and Capitals."
    ]
    assert scope_problems([ACTIVITIES["review"]], Scope(frozenset({Facet.POSTAL})), deck) == []
    # One activity that fits is not enough: each named activity must have something to practise.
    mixed = [ACTIVITIES["review"], ACTIVITIES["border-up"]]
    assert scope_problems(mixed, Scope(frozenset({Facet.ZONE})), deck)
    assert scope_problems([ACTIVITIES["review"]], Scope(area="region:nowhere"), deck) == [
        "The scope has no states: choose a part of the country or some states."
    ]


def test_a_window_runs_from_the_first_midnight_to_the_end_of_the_due_day():
    start, due = window(dt.date(2026, 11, 2), dt.date(2026, 11, 6), "America/Chicago")
    assert start == dt.datetime(2026, 11, 2, 6, tzinfo=UTC)  # CST is UTC-6
    assert due == dt.datetime(2026, 11, 7, 6, tzinfo=UTC)
    assert local_dates(start, due, "America/Chicago") == (
        dt.date(2026, 11, 2),
        dt.date(2026, 11, 6),
    )
    # Over the end of summer time the dates still read back as chosen.
    start, due = window(dt.date(2026, 10, 30), dt.date(2026, 11, 2), "America/New_York")
    assert local_dates(start, due, "America/New_York") == (
        dt.date(2026, 10, 30),
        dt.date(2026, 11, 2),
    )


def at(days: float) -> dt.datetime:
    return START + dt.timedelta(days=days)


def test_rounds_before_the_start_do_not_count_and_late_ones_do():
    """P-A4: work after the due date counts, as late."""
    progress = count_progress([at(-1), at(1), at(2)], 3, START, DUE, at(10))
    assert (progress.status, progress.done, progress.late) == (Status.OVERDUE, 2, 0)
    progress = count_progress([at(-1), at(1), at(2), at(8)], 3, START, DUE, at(10))
    assert (progress.status, progress.done, progress.late, progress.completed_at) == (
        Status.DONE_LATE,
        3,
        1,
        at(8),
    )
    progress = count_progress([at(1), at(2), at(3), at(8)], 3, START, DUE, at(10))
    assert (progress.status, progress.done, progress.late, progress.completed_at) == (
        Status.DONE,
        4,
        1,
        at(3),
    )


def test_the_status_before_and_during_the_window():
    assert count_progress([], 2, START, DUE, at(-1)).status is Status.UPCOMING
    assert count_progress([], 2, START, DUE, at(1)).status is Status.NOT_STARTED
    assert count_progress([at(0.5)], 2, START, DUE, at(1)).status is Status.IN_PROGRESS
    # Asked about the past, it counts only what had happened by then.
    assert count_progress([at(0.5), at(3)], 2, START, DUE, at(1)).done == 1


@given(
    st.lists(st.floats(min_value=-5, max_value=15, allow_nan=False), max_size=30),
    st.integers(min_value=1, max_value=10),
    st.floats(min_value=-5, max_value=15, allow_nan=False),
)
def test_progress_never_goes_back_as_time_passes(offsets, needed, now):
    """Counted work is never lost: later, at least as much is done, and a finish stays a finish."""
    times = [at(o) for o in offsets]
    earlier = count_progress(times, needed, START, DUE, at(now))
    later = count_progress(times, needed, START, DUE, at(now + 1))
    assert later.done >= earlier.done
    assert later.late >= earlier.late
    if earlier.status.finished:
        assert later.status is earlier.status and later.completed_at == earlier.completed_at
    assert earlier.done == sum(1 for t in times if START <= t <= at(now))


def test_recall_on_the_due_date_is_the_forgetting_curve_from_the_last_review():
    reviews = [Review(at(0), 1.0), Review(at(2), 30.0)]
    expected = srs.retrievability(
        srs.Memory(srs.MemoryState.REVIEW, None, 30.0, None, DUE, at(2)), DUE, ZONE
    )
    assert recall_at(reviews, at(3), DUE, ZONE) == pytest.approx(expected)
    # Only reviews up to the cutoff count.
    early = srs.retrievability(
        srs.Memory(srs.MemoryState.REVIEW, None, 1.0, None, DUE, at(0)), DUE, ZONE
    )
    assert recall_at(reviews, at(1), DUE, ZONE) == pytest.approx(early)
    assert recall_at([], at(3), DUE, ZONE) == 0.0


def test_a_recall_goal_is_judged_on_the_due_date():
    """P-A3."""
    facts = ["CO:capital", "UT:capital"]
    strong = [Review(at(1), 200.0)]
    weak = [Review(at(1), 0.5)]
    # During the window: on track only when every fact is predicted at the target on the due date.
    progress = recall_progress(
        facts, {"CO:capital": strong, "UT:capital": weak}, 0.9, START, DUE, at(2), ZONE
    )
    assert (progress.status, progress.done, progress.needed, progress.weakest) == (
        Status.IN_PROGRESS,
        1,
        2,
        ("UT:capital",),
    )
    progress = recall_progress(
        facts, {"CO:capital": strong, "UT:capital": strong}, 0.9, START, DUE, at(2), ZONE
    )
    assert progress.status is Status.ON_TRACK
    assert recall_progress(facts, {}, 0.9, START, DUE, at(2), ZONE).status is Status.NOT_STARTED
    # After the due date: met with the reviews given by then.
    assert (
        recall_progress(
            facts, {"CO:capital": strong, "UT:capital": strong}, 0.9, START, DUE, at(20), ZONE
        ).status
        is Status.DONE
    )
    # Missed on the due date, then caught up: done late.
    late = {"CO:capital": strong, "UT:capital": [*weak, Review(at(19), 200.0)]}
    progress = recall_progress(facts, late, 0.9, START, DUE, at(20), ZONE)
    assert (progress.status, progress.done, progress.late) == (Status.DONE_LATE, 2, 1)
    assert (
        recall_progress(
            facts, {"CO:capital": strong, "UT:capital": weak}, 0.9, START, DUE, at(20), ZONE
        ).status
        is Status.OVERDUE
    )
