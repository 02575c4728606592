"""Elapsed time counts in the student's study days (ruling P-M1), at fixed UTC times.

py-fsrs counts whole 24-hour periods; the app counts study days (4 a.m. to 4 a.m. in the
student's zone), as Anki does. These tests fail under the 24-hour count.
"""

from __future__ import annotations

import datetime as dt

import pytest
from fsrs import Scheduler

from trainer import srs
from trainer.srs import Memory, MemoryState, Rating

UTC = dt.UTC
NEW_YORK = "America/New_York"
#: Clocks go back at 2 a.m. on 1 November 2026 in New York: the study day of 31 October runs
#: from 04:00 EDT (08:00 UTC) to 04:00 EST on 1 November (09:00 UTC), 25 hours.
FALL_BACK_DAY_START = dt.datetime(2026, 10, 31, 8, 0, tzinfo=UTC)
FSRS = Scheduler(desired_retention=srs.DEFAULT_RETENTION, enable_fuzzing=False)


def missed_new_fact(at: dt.datetime, zone: str = "UTC") -> Memory:
    return srs.schedule(srs.new_memory(at), Rating.AGAIN, at, seed="a", time_zone=zone)


def test_the_issue_example_a_miss_then_a_recall_the_next_day_at_23_or_25_hours():
    """P-M1 (issue 19): missed on day 0 at 16:20, recalled the next study day: 23 h or 25 h later,
    the long-term update either way (0.21 -> about 1.9 days), never the same-day one (0.21 -> 0.25)."""
    missed = missed_new_fact(dt.datetime(2026, 3, 2, 16, 20, tzinfo=UTC))
    assert missed.stability == pytest.approx(0.212, abs=1e-3)
    at_23h = srs.schedule(
        missed, Rating.GOOD, missed.last_review + dt.timedelta(hours=23), seed="b", time_zone="UTC"
    )
    at_25h = srs.schedule(
        missed, Rating.GOOD, missed.last_review + dt.timedelta(hours=25), seed="b", time_zone="UTC"
    )
    same_day = srs.schedule(
        missed, Rating.GOOD, missed.last_review + dt.timedelta(hours=2), seed="b", time_zone="UTC"
    )
    assert at_23h.stability == at_25h.stability > 1.5
    assert same_day.stability == pytest.approx(
        FSRS._short_term_stability(stability=missed.stability, rating=2 + 1)
    )
    assert same_day.stability < 0.5


def test_elapsed_days_change_at_4am_local_not_at_midnight_or_after_24_hours():
    """P-M1, P-M3: 03:59 in the student's zone is still yesterday's study day; 04:01 is today's."""
    last = dt.datetime(2026, 3, 3, 1, 0, tzinfo=UTC)  # 20:00 EST, 2 March
    at_0359 = dt.datetime(2026, 3, 3, 8, 59, tzinfo=UTC)  # 03:59 EST, 3 March
    at_0401 = dt.datetime(2026, 3, 3, 9, 1, tzinfo=UTC)  # 04:01 EST
    assert srs.elapsed_days(last, at_0359, NEW_YORK) == 0
    assert srs.elapsed_days(last, at_0401, NEW_YORK) == 1
    assert srs.elapsed_days(at_0401, last, NEW_YORK) == 0  # a time before the last review: 0


def test_a_review_at_0359_is_a_same_day_review_and_at_0401_a_next_day_one():
    """P-M1: the same-day (short-term) update before 4 a.m., the long-term one after."""
    missed = missed_new_fact(dt.datetime(2026, 3, 3, 1, 0, tzinfo=UTC), NEW_YORK)
    before_4 = srs.schedule(
        missed, Rating.GOOD, dt.datetime(2026, 3, 3, 8, 59, tzinfo=UTC), time_zone=NEW_YORK
    )
    after_4 = srs.schedule(
        missed, Rating.GOOD, dt.datetime(2026, 3, 3, 9, 1, tzinfo=UTC), time_zone=NEW_YORK
    )
    assert before_4.stability == pytest.approx(
        FSRS._short_term_stability(stability=missed.stability, rating=3)
    )
    assert after_4.stability > 1.5 > before_4.stability


def test_the_25_hour_fall_back_day_is_one_study_day():
    """P-M1: 24 h 50 min apart, inside New York's 25-hour study day of 31 October: the same day."""
    first = FALL_BACK_DAY_START + dt.timedelta(minutes=5)  # 04:05 EDT
    last_minute = FALL_BACK_DAY_START + dt.timedelta(hours=24, minutes=55)  # 03:55 EST, 1 November
    assert last_minute - first > dt.timedelta(hours=24)
    assert srs.elapsed_days(first, last_minute, NEW_YORK) == 0
    missed = missed_new_fact(first, NEW_YORK)
    later = srs.schedule(missed, Rating.GOOD, last_minute, time_zone=NEW_YORK)
    assert later.stability == pytest.approx(
        FSRS._short_term_stability(stability=missed.stability, rating=3)
    )
    assert srs.recall(missed.stability, first, last_minute, NEW_YORK) == 1.0


def test_recall_is_whole_all_through_the_study_day_and_falls_the_next():
    """P-M1: 1.0 until the next 4 a.m. local, below 1 from then, whatever the hours."""
    last = dt.datetime(2026, 3, 2, 16, 20, tzinfo=UTC)
    assert srs.recall(5.0, last, dt.datetime(2026, 3, 3, 3, 59, tzinfo=UTC), "UTC") == 1.0
    next_day = srs.recall(5.0, last, dt.datetime(2026, 3, 3, 4, 0, tzinfo=UTC), "UTC")
    assert next_day == srs.recall_after(5.0, 1) < 1.0
    memory = Memory(MemoryState.REVIEW, None, 5.0, 5.0, last, last)
    assert srs.retrievability(memory, dt.datetime(2026, 3, 3, 16, 2, tzinfo=UTC), "UTC") == next_day


def test_a_miss_comes_back_at_the_start_of_the_next_study_day_not_minutes_later():
    """P-M12 (no same-day steps) with P-M2: a new fact missed, or a learned fact forgotten, falls due
    at 4 a.m. local of the next study day, even 2 minutes before the day ends."""
    at = dt.datetime(
        2026, 3, 3, 8, 58, tzinfo=UTC
    )  # 03:58 in New York: the study day ends in 2 minutes
    missed = missed_new_fact(at, NEW_YORK)
    assert missed.state is MemoryState.REVIEW and missed.last_review == at
    assert missed.due == dt.datetime(2026, 3, 3, 9, 0, tzinfo=UTC)
    learned = Memory(MemoryState.REVIEW, None, 10.0, 5.0, at, at - dt.timedelta(days=9))
    lapsed = srs.schedule(learned, Rating.AGAIN, at, time_zone=NEW_YORK)
    assert lapsed.state is MemoryState.REVIEW and lapsed.due == dt.datetime(
        2026, 3, 3, 9, 0, tzinfo=UTC
    )
    assert lapsed.lapses == 1


@pytest.mark.parametrize("zone", ["UTC", NEW_YORK, "Asia/Kolkata"])
@pytest.mark.parametrize("hour", [0, 3, 5, 12, 23])
def test_a_fact_in_review_falls_due_at_the_start_of_its_study_day(zone, hour):
    """P-M2: a review fact is due at 4 a.m. local on study day today + interval, so "due today" is the
    same for the queue, the study home and the dashboards; the fuzz stays in whole days."""
    at = dt.datetime(2026, 10, 28, hour, 30, tzinfo=UTC)
    learned = Memory(MemoryState.REVIEW, None, 10.0, 5.0, at, at - dt.timedelta(days=9))
    for seed in ("x", "y", "z"):
        after = srs.schedule(learned, Rating.GOOD, at, seed=seed, time_zone=zone)
        due_day = srs.study_day(after.due, zone)
        assert after.due == due_day.start
        assert (due_day.date - srs.study_day(at, zone).date).days >= 1
        assert after.last_review == at


def test_the_fuzzed_interval_is_the_seeded_one_in_study_days():
    at = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
    learned = Memory(MemoryState.REVIEW, None, 30.0, 5.0, at, at - dt.timedelta(days=30))
    card_interval = dt.timedelta(
        days=FSRS._next_interval(
            stability=srs.schedule(learned, Rating.GOOD, at, time_zone="UTC").stability
        )
    )
    after = srs.schedule(learned, Rating.GOOD, at, seed="s", time_zone="UTC")
    days = srs._fuzzed(card_interval, "s", FSRS.maximum_interval).days
    assert after.due == srs.study_day(at, "UTC").start + dt.timedelta(days=days)
