"""The grading policy, FSRS scheduling, the student's day and the queue, at fixed UTC times."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.srs.strategies import memory_strategy
from trainer import srs
from trainer.cards import load_deck
from trainer.facts import Facet, Fact, Form, Verdict, dont_know
from trainer.srs import Help, Memory, MemoryState, Outcome, Rating

UTC = dt.UTC
T0 = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
TZ = "UTC"
NEW_YORK = "America/New_York"


def outcome(verdict=Verdict.RIGHT, form=Form.TYPED, help=Help.NONE, ms=None) -> Outcome:
    return Outcome("CO:capital", verdict, "review", form, "round", "1", "Denver", ms, help)


# --- The grading policy -------------------------------------------------------------------


STRONG_FORMS = [Form.TYPED, Form.MAP_CLICK]


@pytest.mark.parametrize("strong_before", [False, True])
@pytest.mark.parametrize("form", list(Form))
def test_wrong_is_again(form, strong_before):
    """P-M5."""
    assert (
        srs.rate(outcome(Verdict.WRONG, form, ms=100), strong_before=strong_before) is Rating.AGAIN
    )


@pytest.mark.parametrize("strong_before", [False, True])
def test_i_dont_know_is_again(strong_before):
    """P-M5: "I don't know" is judged wrong, so it is Again, in any form."""
    judgement = dont_know(Fact("CO", Facet.CAPITAL), load_deck())
    for form in Form:
        answer = Outcome(
            "CO:capital", judgement.verdict, "review", form, "round", "1", judgement.given, 900
        )
        assert srs.rate(answer, strong_before=strong_before) is Rating.AGAIN


@pytest.mark.parametrize("strong_before", [False, True])
@pytest.mark.parametrize("form", list(Form))
def test_close_is_hard_even_when_fast(form, strong_before):
    """P-M5."""
    assert (
        srs.rate(outcome(Verdict.CLOSE, form, ms=100), strong_before=strong_before) is Rating.HARD
    )


@pytest.mark.parametrize("form", list(Form))
@pytest.mark.parametrize("help", [h for h in Help if h is not Help.NONE])
def test_helped_right_is_hard(help, form):
    """P-M5: a hint, a later clue, a second or third guess: right but helped = Hard."""
    assert srs.rate(outcome(help=help, form=form, ms=100), strong_before=True) is Rating.HARD


@pytest.mark.parametrize("strong_before", [False, True])
@pytest.mark.parametrize("form", STRONG_FORMS)
def test_right_in_a_strong_form_is_good(form, strong_before):
    """P-M4, P-M5: a typed answer or a map click shows the fact is known, the first time too."""
    assert srs.rate(outcome(form=form, ms=5000), strong_before=strong_before) is Rating.GOOD


def test_a_right_pick_is_hard_until_the_fact_was_shown_known_in_a_strong_form():
    """P-M5: a pick from four may be a lucky guess (1 in 4 for a new fact): Hard (FSRS's first
    stability about 1.3 days, not Good's 2.3); once the fact was answered right or close in a
    strong form, a right pick is Good. Never Easy (issue 19 changed this from Good)."""
    assert srs.rate(outcome(form=Form.CHOICE, ms=1), strong_before=False) is Rating.HARD
    assert srs.rate(outcome(form=Form.CHOICE, ms=1), strong_before=True) is Rating.GOOD


def test_the_first_stability_of_a_lucky_pick_is_shorter():
    """P-M5: what Hard buys over Good for a new fact picked right (FSRS-6 default weights)."""
    hard = srs.schedule(
        srs.new_memory(T0),
        srs.rate(outcome(form=Form.CHOICE), strong_before=False),
        T0,
        time_zone=TZ,
    )
    good = srs.schedule(
        srs.new_memory(T0),
        srs.rate(outcome(form=Form.TYPED), strong_before=False),
        T0,
        time_zone=TZ,
    )
    assert hard.stability < 1.5 < 2.0 < good.stability


@pytest.mark.parametrize("form", STRONG_FORMS)
def test_a_fast_answer_is_not_easy(form):
    """P-M7: speed rates nothing: 0.1 s or 50 s, a right typed or clicked answer is Good
    (issue 19 changed this from Easy for a fast one)."""
    for ms in (1, 100, 2000, 50_000, None):
        assert srs.rate(outcome(form=form, ms=ms), strong_before=True) is Rating.GOOD


def test_what_an_answer_proves():
    """P-M4: typed and map clicks are strong; a pick is not. Only a right unhelped pick is rated
    by the earlier answers."""
    assert [form for form in Form if srs.is_strong(form)] == STRONG_FORMS
    assert srs.evidence_matters(outcome(form=Form.CHOICE))
    assert not srs.evidence_matters(outcome(form=Form.CHOICE, verdict=Verdict.WRONG))
    assert not srs.evidence_matters(outcome(form=Form.CHOICE, help=Help.HINT))
    assert not any(srs.evidence_matters(outcome(form=form)) for form in STRONG_FORMS)


@settings(max_examples=300, deadline=None)
@given(
    verdict=st.sampled_from(Verdict),
    form=st.sampled_from(Form),
    help=st.sampled_from(Help),
    ms=st.none() | st.integers(min_value=0, max_value=600_000),
    strong_before=st.booleans(),
)
def test_the_grading_policy_over_every_outcome(verdict, form, help, ms, strong_before):
    """P-M5, P-M7: nothing is Easy; a pick is never Good before strong evidence; a right,
    unhelped typed or clicked answer is Good; the rating never depends on the time taken."""
    answer = outcome(verdict, form, help, ms)
    rating = srs.rate(answer, strong_before=strong_before)
    assert rating is not Rating.EASY
    if form is Form.CHOICE and not strong_before:
        assert rating is not Rating.GOOD
    if verdict is Verdict.RIGHT and help is Help.NONE and srs.is_strong(form):
        assert rating is Rating.GOOD
    assert rating is srs.rate(outcome(verdict, form, help, None), strong_before=strong_before)
    if not srs.evidence_matters(answer):
        assert rating is srs.rate(answer, strong_before=not strong_before)


# --- Scheduling -----------------------------------------------------------------------------


def review_sequence(ratings, start=T0, gap=None, retention=0.9):
    memory = srs.new_memory(start)
    now = start
    history = []
    for i, rating in enumerate(ratings):
        memory = srs.schedule(
            memory, rating, now, desired_retention=retention, seed=f"s{i}", time_zone=TZ
        )
        history.append((now, memory))
        now = memory.due if gap is None else now + gap
    return history


def test_a_new_fact_comes_back_on_a_later_study_day_not_minutes_later():
    """P-M12: no same-day steps. Right or wrong, a new fact's next review is on a later study day,
    at its start (4 a.m. local, P-M2)."""
    for rating in Rating:
        memory = srs.schedule(srs.new_memory(T0), rating, T0, time_zone=TZ)
        assert memory.state is MemoryState.REVIEW and not memory.in_steps
        assert memory.due >= srs.study_day(T0, TZ).end
        assert memory.due.astimezone(srs._zone(TZ)).time() == srs.DAY_STARTS_AT
        assert memory.reps == 1 and memory.lapses == 0
    missed = srs.schedule(srs.new_memory(T0), Rating.AGAIN, T0, time_zone=TZ)
    assert missed.due == srs.study_day(T0, TZ).end, "a miss comes back the next study day"


def test_good_answers_space_out():
    history = review_sequence([Rating.GOOD] * 6)
    intervals = [memory.due - when for when, memory in history]
    assert history[-1][1].state is MemoryState.REVIEW
    assert intervals[-1] > intervals[-2] > dt.timedelta(days=1)


def test_the_input_memory_is_unchanged():
    before = srs.new_memory(T0)
    srs.schedule(before, Rating.GOOD, T0, time_zone=TZ)
    assert before == srs.new_memory(T0)


def test_lapses_count_only_facts_forgotten_after_they_were_learned():
    """P-M12: a miss is a lapse only once the fact's memory had lasted a day or more."""
    history = review_sequence([Rating.AGAIN, Rating.AGAIN, Rating.GOOD, Rating.GOOD, Rating.AGAIN])
    assert [memory.lapses for _, memory in history] == [0, 0, 0, 0, 1]
    assert history[1][1].stability < srs.LEARNED_STABILITY_DAYS <= history[3][1].stability


def test_a_fact_forgotten_eight_times_is_a_leech():
    ratings = [Rating.GOOD, Rating.GOOD] + [
        Rating.AGAIN,
        Rating.GOOD,
        Rating.GOOD,
    ] * srs.LEECH_LAPSES
    history = review_sequence(ratings)
    lapses = [memory.lapses for _, memory in history]
    assert max(lapses) == srs.LEECH_LAPSES
    first_leech = next(i for i, (_, m) in enumerate(history) if m.is_leech)
    assert history[first_leech - 1][1].lapses == srs.LEECH_LAPSES - 1


def test_fuzz_is_seeded_so_a_schedule_replays():
    memory = srs.schedule(srs.new_memory(T0), Rating.EASY, T0, time_zone=TZ)
    later = memory.due + dt.timedelta(days=30)
    dues = {
        srs.schedule(memory, Rating.GOOD, later, seed=f"round:{i}", time_zone=TZ).due
        for i in range(20)
    }
    assert len(dues) > 1, "fuzz spreads facts learned together"
    assert srs.schedule(memory, Rating.GOOD, later, seed="x", time_zone=TZ) == srs.schedule(
        memory, Rating.GOOD, later, seed="x", time_zone=TZ
    )


def test_higher_retention_means_sooner_reviews():
    low = review_sequence([Rating.GOOD] * 4, retention=0.7)[-1][1]
    high = review_sequence([Rating.GOOD] * 4, retention=0.97)[-1][1]
    assert high.due - high.last_review < low.due - low.last_review


@pytest.mark.parametrize("retention", [0.69, 0.98, 1.0, 0.0])
def test_retention_outside_the_allowed_range_is_refused(retention):
    with pytest.raises(ValueError):
        srs.schedule(srs.new_memory(T0), Rating.GOOD, T0, desired_retention=retention, time_zone=TZ)


def test_naive_times_are_refused():
    with pytest.raises(ValueError):
        srs.new_memory(dt.datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        srs.schedule(srs.new_memory(T0), Rating.GOOD, dt.datetime(2026, 1, 1), time_zone=TZ)


def test_retrievability_falls_with_time():
    memory = review_sequence([Rating.GOOD] * 4)[-1][1]
    assert srs.retrievability(srs.new_memory(T0), T0, TZ) == 0.0
    soon = srs.retrievability(memory, memory.last_review + dt.timedelta(days=1), TZ)
    late = srs.retrievability(memory, memory.last_review + dt.timedelta(days=100), TZ)
    assert 1.0 >= soon > late > 0.0


@given(
    st.floats(min_value=0.01, max_value=36500, allow_nan=False),
    st.integers(min_value=-5 * 86400, max_value=3650 * 86400),
)
def test_recall_is_fsrs_own_forgetting_curve(stability, seconds):
    """The fast path gives exactly what fsrs's scheduler gives for the same card, shown a last
    review as many whole days back as there are study days between them (P-M1)."""
    from fsrs import Card, Scheduler

    at = T0 + dt.timedelta(seconds=seconds)
    days = srs.elapsed_days(T0, at, NEW_YORK)
    card = Card(card_id=1, stability=stability, last_review=at - dt.timedelta(days=days), due=T0)
    expected = Scheduler(
        desired_retention=srs.DEFAULT_RETENTION, enable_fuzzing=False
    ).get_card_retrievability(card, at)
    assert srs.recall(stability, T0, at, NEW_YORK) == pytest.approx(expected, rel=1e-12)
    assert (
        srs.recall(None, T0, at, NEW_YORK) == 0.0
        and srs.recall(stability, None, at, NEW_YORK) == 0.0
    )


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
        memory = srs.schedule(
            memory, rating, now, desired_retention=retention, seed=str(gap), time_zone=TZ
        )
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
    return Memory(
        MemoryState.REVIEW, None, stability, 5.0, due, last or due - dt.timedelta(days=stability)
    )


def test_due_facts_come_first_least_likely_recalled_first():
    memories = {
        "CO:map": review_memory(T0 - dt.timedelta(days=1), stability=20),
        "CO:capital": review_memory(T0 - dt.timedelta(days=1), stability=2),
        "UT:map": review_memory(T0 + dt.timedelta(days=3)),  # not due
        "UT:capital": review_memory(T0 + dt.timedelta(hours=3)),  # due later today
    }
    queue = srs.build_queue(
        memories, T0, DAY, teaching_order=["WA:map", "CO:map"], new_allowed=5, size=10
    )
    assert queue[:3] == ["CO:capital", "CO:map", "UT:capital"] or queue[:3] == [
        "CO:map",
        "CO:capital",
        "UT:capital",
    ]
    rs = [srs.retrievability(memories[k], T0, DAY.time_zone) for k in queue[:3]]
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
    assert srs.build_queue(
        memories, T0, DAY, teaching_order=["WA:map"], new_allowed=1, size=10
    ) == ["WA:map", "CO:map"]
    assert srs.build_queue(memories, T0, DAY, teaching_order=["WA:map"], new_allowed=1, size=1) == [
        "WA:map"
    ]


def test_include_focuses_the_queue():
    order = ["WA:map", "WA:capital", "OR:map"]
    queue = srs.build_queue(
        {},
        T0,
        DAY,
        teaching_order=order,
        new_allowed=5,
        size=5,
        include=lambda k: k.endswith(":map"),
    )
    assert queue == ["WA:map", "OR:map"]


@settings(max_examples=200, deadline=None)
@given(
    memories=st.dictionaries(
        st.sampled_from([f"K{i}" for i in range(40)]), memory_strategy, max_size=40
    ),
    new_allowed=st.integers(0, 30),
    size=st.integers(0, 30),
)
def test_the_queue_never_repeats_a_fact(memories, new_allowed, size):
    order = [f"K{i}" for i in range(40)] + [f"N{i}" for i in range(20)]
    queue = srs.build_queue(
        memories, T0, DAY, teaching_order=order, new_allowed=new_allowed, size=size
    )
    assert len(queue) == len(set(queue)) <= size
    new = [k for k in queue if k not in memories]
    assert len(new) <= new_allowed
