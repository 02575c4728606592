"""The grading policy, FSRS scheduling, the student's day and the queue, at fixed UTC times."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import srs
from trainer.facts import Form, Verdict
from trainer.srs import Help, Memory, MemoryState, Outcome, Rating

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)


def outcome(verdict=Verdict.RIGHT, form=Form.TYPED, help=Help.NONE, ms=None) -> Outcome:
    return Outcome("CO:capital", verdict, "review", form, "round", "1", "Denver", ms, help)


SLOW_HISTORY = [4000, 5000, 6000, 5000, 4500]


# --- The grading policy -------------------------------------------------------------------


@pytest.mark.parametrize("form", list(Form))
def test_wrong_is_again(form):
    assert srs.rate(outcome(Verdict.WRONG, form, ms=100), SLOW_HISTORY) is Rating.AGAIN


@pytest.mark.parametrize("form", list(Form))
def test_close_is_hard_even_when_fast(form):
    assert srs.rate(outcome(Verdict.CLOSE, form, ms=100), SLOW_HISTORY) is Rating.HARD


@pytest.mark.parametrize("help", [h for h in Help if h is not Help.NONE])
def test_helped_right_is_hard(help):
    """A hint, a later clue, a second or third guess: right but helped = Hard."""
    assert srs.rate(outcome(help=help, ms=100), SLOW_HISTORY) is Rating.HARD


def test_right_is_good():
    assert srs.rate(outcome(ms=5000), SLOW_HISTORY) is Rating.GOOD


@pytest.mark.parametrize("form", [Form.TYPED, Form.MAP_CLICK])
def test_right_and_fast_typed_or_clicked_is_easy(form):
    assert srs.rate(outcome(form=form, ms=2000), SLOW_HISTORY) is Rating.EASY


def test_multiple_choice_is_never_easy():
    assert srs.rate(outcome(form=Form.CHOICE, ms=1), SLOW_HISTORY) is Rating.GOOD


def test_fast_is_relative_to_the_students_own_times():
    """2 s is fast for a student who takes 5 s, and slow for one who takes 1.5 s."""
    assert srs.rate(outcome(ms=2000), SLOW_HISTORY) is Rating.EASY
    assert srs.rate(outcome(ms=2000), [1500] * 10) is Rating.GOOD


def test_nothing_is_fast_without_enough_history_or_a_time():
    assert srs.rate(outcome(ms=1), SLOW_HISTORY[:4]) is Rating.GOOD
    assert srs.rate(outcome(ms=None), SLOW_HISTORY) is Rating.GOOD


# --- Scheduling -----------------------------------------------------------------------------


def review_sequence(ratings, start=T0, gap=None, retention=0.9):
    memory = srs.new_memory(start)
    now = start
    history = []
    for i, rating in enumerate(ratings):
        memory = srs.schedule(memory, rating, now, desired_retention=retention, seed=f"s{i}")
        history.append((now, memory))
        now = memory.due if gap is None else now + gap
    return history


def test_a_new_fact_answered_right_goes_to_its_next_learning_step():
    memory = srs.schedule(srs.new_memory(T0), Rating.GOOD, T0)
    assert memory.state is MemoryState.LEARNING
    assert memory.due == T0 + dt.timedelta(minutes=10)
    assert memory.reps == 1 and memory.lapses == 0


def test_good_answers_space_out():
    history = review_sequence([Rating.GOOD] * 6)
    intervals = [memory.due - when for when, memory in history]
    assert history[-1][1].state is MemoryState.REVIEW
    assert intervals[-1] > intervals[-2] > dt.timedelta(days=1)


def test_the_input_memory_is_unchanged():
    before = srs.new_memory(T0)
    srs.schedule(before, Rating.GOOD, T0)
    assert before == srs.new_memory(T0)


def test_lapses_count_only_facts_forgotten_after_they_were_learned():
    history = review_sequence([Rating.AGAIN, Rating.AGAIN, Rating.GOOD, Rating.GOOD, Rating.AGAIN])
    states = [memory.state for _, memory in history]
    assert states[3] is MemoryState.REVIEW
    assert [memory.lapses for _, memory in history] == [0, 0, 0, 0, 1]
    assert states[4] is MemoryState.RELEARNING


def test_a_fact_forgotten_eight_times_is_a_leech():
    ratings = [Rating.GOOD, Rating.GOOD] + [Rating.AGAIN, Rating.GOOD] * srs.LEECH_LAPSES
    history = review_sequence(ratings)
    lapses = [memory.lapses for _, memory in history]
    assert max(lapses) == srs.LEECH_LAPSES
    first_leech = next(i for i, (_, m) in enumerate(history) if m.is_leech)
    assert history[first_leech - 1][1].lapses == srs.LEECH_LAPSES - 1


def test_fuzz_is_seeded_so_a_schedule_replays():
    memory = srs.schedule(srs.new_memory(T0), Rating.EASY, T0)
    later = memory.due + dt.timedelta(days=30)
    dues = {srs.schedule(memory, Rating.GOOD, later, seed=f"round:{i}").due for i in range(20)}
    assert len(dues) > 1, "fuzz spreads facts learned together"
    assert srs.schedule(memory, Rating.GOOD, later, seed="x") == srs.schedule(memory, Rating.GOOD, later, seed="x")


def test_higher_retention_means_sooner_reviews():
    low = review_sequence([Rating.GOOD] * 4, retention=0.7)[-1][1]
    high = review_sequence([Rating.GOOD] * 4, retention=0.97)[-1][1]
    assert high.due - high.last_review < low.due - low.last_review


@pytest.mark.parametrize("retention", [0.69, 0.98, 1.0, 0.0])
def test_retention_outside_the_allowed_range_is_refused(retention):
    with pytest.raises(ValueError):
        srs.schedule(srs.new_memory(T0), Rating.GOOD, T0, desired_retention=retention)


def test_naive_times_are_refused():
    with pytest.raises(ValueError):
        srs.new_memory(dt.datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        srs.schedule(srs.new_memory(T0), Rating.GOOD, dt.datetime(2026, 1, 1))


def test_retrievability_falls_with_time():
    memory = review_sequence([Rating.GOOD] * 4)[-1][1]
    assert srs.retrievability(srs.new_memory(T0), T0) == 0.0
    soon = srs.retrievability(memory, memory.last_review + dt.timedelta(days=1))
    late = srs.retrievability(memory, memory.last_review + dt.timedelta(days=100))
    assert 1.0 >= soon > late > 0.0


@given(
    st.floats(min_value=0.01, max_value=36500, allow_nan=False),
    st.integers(min_value=-5 * 86400, max_value=3650 * 86400),
)
def test_recall_is_fsrs_own_forgetting_curve(stability, seconds):
    """The fast path gives exactly what fsrs's scheduler gives for the same card."""
    from fsrs import Card, Scheduler

    at = T0 + dt.timedelta(seconds=seconds)
    card = Card(card_id=1, stability=stability, last_review=T0, due=T0)
    expected = Scheduler(desired_retention=srs.DEFAULT_RETENTION, enable_fuzzing=False).get_card_retrievability(card, at)
    assert srs.recall(stability, T0, at) == pytest.approx(expected, rel=1e-12)
    assert srs.recall(None, T0, at) == 0.0 and srs.recall(stability, None, at) == 0.0


@settings(max_examples=200, deadline=None)
@given(
    ratings=st.lists(st.sampled_from(list(Rating)), min_size=1, max_size=25),
    gaps=st.lists(st.integers(min_value=0, max_value=90 * 24 * 60), min_size=25, max_size=25),
    retention=st.floats(min_value=srs.MIN_RETENTION, max_value=srs.MAX_RETENTION),
)
def test_no_sequence_of_outcomes_schedules_a_review_in_its_past(ratings, gaps, retention):
    memory = srs.new_memory(T0)
    now = T0
    for rating, gap in zip(ratings, gaps):
        memory = srs.schedule(memory, rating, now, desired_retention=retention, seed=str(gap))
        assert memory.due > now
        assert memory.last_review == now
        assert memory.stability is not None and memory.stability > 0
        assert 1 <= memory.difficulty <= 10
        now += dt.timedelta(minutes=gap)


# --- The student's day ----------------------------------------------------------------------


def test_the_day_starts_at_4am_local_time():
    la = "America/Los_Angeles"
    late_night = dt.datetime(2026, 3, 3, 11, 30, tzinfo=UTC)  # 03:30 in Los Angeles, 3 March
    morning = dt.datetime(2026, 3, 3, 12, 30, tzinfo=UTC)  # 04:30
    assert srs.study_day(late_night, la).date == dt.date(2026, 3, 2)
    assert srs.study_day(morning, la).date == dt.date(2026, 3, 3)
    day = srs.study_day(morning, la)
    assert day.start == dt.datetime(2026, 3, 3, 12, 0, tzinfo=UTC)
    assert day.end == dt.datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


def test_a_day_across_the_clock_change_is_23_hours():
    # Clocks go forward at 2 a.m. on 8 March 2026, inside the study day that began at 4 a.m. on the 7th.
    day = srs.study_day(dt.datetime(2026, 3, 7, 20, 0, tzinfo=UTC), "America/New_York")
    assert day.end - day.start == dt.timedelta(hours=23)


def test_streak_counts_days_up_to_today_or_yesterday():
    d = dt.date(2026, 3, 10)
    days = [d - dt.timedelta(days=i) for i in (1, 2, 3, 5)]
    assert srs.streak(days, d) == 3
    assert srs.streak(days + [d], d) == 4
    assert srs.streak([d - dt.timedelta(days=2)], d) == 0
    assert srs.streak([], d) == 0


# --- The queue ------------------------------------------------------------------------------

DAY = srs.study_day(T0, "UTC")


def review_memory(due, stability=10.0, last=None):
    return Memory(MemoryState.REVIEW, None, stability, 5.0, due, last or due - dt.timedelta(days=stability))


def test_due_facts_come_first_least_likely_recalled_first():
    memories = {
        "CO:map": review_memory(T0 - dt.timedelta(days=1), stability=20),
        "CO:capital": review_memory(T0 - dt.timedelta(days=1), stability=2),
        "UT:map": review_memory(T0 + dt.timedelta(days=3)),  # not due
        "UT:capital": review_memory(T0 + dt.timedelta(hours=3)),  # due later today
    }
    queue = srs.build_queue(memories, T0, DAY, teaching_order=["WA:map", "CO:map"], new_allowed=5, size=10)
    assert queue[:3] == ["CO:capital", "CO:map", "UT:capital"] or queue[:3] == ["CO:map", "CO:capital", "UT:capital"]
    rs = [srs.retrievability(memories[k], T0) for k in queue[:3]]
    assert rs == sorted(rs)
    assert queue[3:] == ["WA:map"], "new facts follow, and an introduced fact is never new"


def test_new_facts_respect_the_daily_limit_and_the_size():
    order = [f"S{i}" for i in range(50)]
    assert srs.build_queue({}, T0, DAY, teaching_order=order, new_allowed=3, size=10) == order[:3]
    assert srs.build_queue({}, T0, DAY, teaching_order=order, new_allowed=30, size=10) == order[:10]
    assert srs.build_queue({}, T0, DAY, teaching_order=order, new_allowed=0, size=10) == []


def test_steps_due_soon_only_fill_an_otherwise_short_queue():
    soon = Memory(MemoryState.LEARNING, 1, 1.0, 5.0, T0 + dt.timedelta(minutes=5), T0)
    later = Memory(MemoryState.LEARNING, 1, 1.0, 5.0, T0 + dt.timedelta(hours=1), T0)
    memories = {"CO:map": soon, "UT:map": later}
    assert srs.build_queue(memories, T0, DAY, teaching_order=["WA:map"], new_allowed=1, size=10) == ["WA:map", "CO:map"]
    assert srs.build_queue(memories, T0, DAY, teaching_order=["WA:map"], new_allowed=1, size=1) == ["WA:map"]


def test_include_focuses_the_queue():
    order = ["WA:map", "WA:capital", "OR:map"]
    queue = srs.build_queue({}, T0, DAY, teaching_order=order, new_allowed=5, size=5, include=lambda k: k.endswith(":map"))
    assert queue == ["WA:map", "OR:map"]


memory_strategy = st.builds(
    Memory,
    state=st.sampled_from(list(MemoryState)),
    step=st.one_of(st.none(), st.integers(0, 2)),
    stability=st.floats(0.1, 400),
    difficulty=st.floats(1, 10),
    due=st.integers(-30 * 24 * 60, 30 * 24 * 60).map(lambda m: T0 + dt.timedelta(minutes=m)),
    last_review=st.integers(1, 400 * 24 * 60).map(lambda m: T0 - dt.timedelta(minutes=m)),
)


@settings(max_examples=200, deadline=None)
@given(
    memories=st.dictionaries(st.sampled_from([f"K{i}" for i in range(40)]), memory_strategy, max_size=40),
    new_allowed=st.integers(0, 30),
    size=st.integers(0, 30),
)
def test_the_queue_never_repeats_a_fact(memories, new_allowed, size):
    order = [f"K{i}" for i in range(40)] + [f"N{i}" for i in range(20)]
    queue = srs.build_queue(memories, T0, DAY, teaching_order=order, new_allowed=new_allowed, size=size)
    assert len(queue) == len(set(queue)) <= size
    new = [k for k in queue if k not in memories]
    assert len(new) <= new_allowed
