"""Keep practising once nothing is due (ruling P-M8): the facts most at risk, at fixed UTC times."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.srs.strategies import memory_strategy
from trainer import srs
from trainer.srs import Memory, MemoryState

UTC = dt.UTC
T0 = dt.datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
DAY = srs.study_day(T0, "UTC")


def reviewed(days_ago: float, stability: float, due_in_days: float = 5.0) -> Memory:
    """A fact in review, last answered ``days_ago`` and due in ``due_in_days`` (not due by default)."""
    return Memory(
        MemoryState.REVIEW,
        None,
        stability,
        5.0,
        T0 + dt.timedelta(days=due_in_days),
        T0 - dt.timedelta(days=days_ago),
    )


def step(minutes_to_due: float, days_ago: float = 0.0) -> Memory:
    """A fact in relearning steps, its next step ``minutes_to_due`` from now."""
    return Memory(
        MemoryState.RELEARNING,
        0,
        2.0,
        6.0,
        T0 + dt.timedelta(minutes=minutes_to_due),
        T0 - dt.timedelta(days=days_ago, minutes=5),
    )


def recall(memory: Memory) -> float:
    return srs.retrievability(memory, T0, DAY.time_zone)


def test_lowest_predicted_recall_comes_first():
    """P-M8: the facts the student is most likely to forget come first."""
    memories = {
        "CO:map": reviewed(3, stability=30),
        "CO:capital": reviewed(10, stability=5),
        "UT:map": reviewed(6, stability=12),
        "UT:capital": reviewed(2, stability=2),
    }
    order = srs.practice_order(memories, T0, DAY)
    assert sorted(order) == sorted(memories)
    recalls = [recall(memories[key]) for key in order]
    assert recalls == sorted(recalls) and recalls[0] < recalls[-1]
    assert order[0] == "CO:capital"


def test_facts_answered_today_are_left_out():
    """P-M8: a fact answered earlier this study day has predicted recall 1.0 and is not practised
    again today (it would be a same-day review); one answered yesterday evening is."""
    this_morning = Memory(
        MemoryState.REVIEW,
        None,
        3.0,
        5.0,
        T0 + dt.timedelta(days=3),
        DAY.start + dt.timedelta(hours=1),
    )
    last_night = Memory(
        MemoryState.REVIEW,
        None,
        3.0,
        5.0,
        T0 + dt.timedelta(days=3),
        DAY.start - dt.timedelta(hours=1),
    )
    assert recall(this_morning) == 1.0
    assert srs.practice_order({"CO:map": this_morning, "UT:map": last_night}, T0, DAY) == ["UT:map"]


def test_steps_not_due_yet_are_left_out_and_due_ones_kept():
    """P-M8: a fact in (re)learning steps waits for its step; one whose step has come is practised."""
    memories = {
        "CO:map": step(15, days_ago=1),
        "UT:map": step(-5, days_ago=1),
        "WA:map": reviewed(4, stability=3),
    }
    assert sorted(srs.practice_order(memories, T0, DAY)) == ["UT:map", "WA:map"]


def test_the_focus_is_respected():
    memories = {
        "CO:map": reviewed(9, stability=2),
        "CO:capital": reviewed(3, stability=9),
        "UT:map": reviewed(4, stability=4),
    }
    assert srs.practice_order(memories, T0, DAY, include=lambda key: key.endswith(":map")) == [
        "CO:map",
        "UT:map",
    ]
    queue = srs.build_queue(
        memories, T0, DAY, teaching_order=["WA:map", "WA:capital"], new_allowed=0, size=10,
        include=lambda key: key.endswith(":capital"), practice=True,
    )  # fmt: skip
    assert queue == ["CO:capital"]


def test_practice_fills_the_round_after_due_new_and_soon_steps():
    """P-M8: due facts, then new ones up to the daily limit, then steps due soon, then practice."""
    memories = {
        "CO:map": reviewed(20, stability=10, due_in_days=-1),  # due
        "UT:map": step(5),  # a step due in a few minutes
        "WA:map": reviewed(5, stability=3),  # weakest not due
        "OR:map": reviewed(2, stability=40),  # strongest not due
        "ID:map": step(60),  # a step due later
    }
    order = ["NV:map", "AZ:map", "NM:map"]
    plain = srs.build_queue(memories, T0, DAY, teaching_order=order, new_allowed=2, size=10)
    assert plain == ["CO:map", "NV:map", "AZ:map", "UT:map"]
    practice = srs.build_queue(
        memories, T0, DAY, teaching_order=order, new_allowed=2, size=10, practice=True
    )
    assert practice == [*plain, "WA:map", "OR:map"]
    assert srs.build_queue(
        memories, T0, DAY, teaching_order=order, new_allowed=2, size=5, practice=True
    ) == [*plain, "WA:map"]


def test_without_practice_every_introduced_memory_changes_nothing():
    """The queue may be given every memory (as it is when practising): without ``practice`` the
    ones not due and not soon are ignored."""
    memories = {"CO:map": reviewed(5, stability=3), "UT:map": step(60)}
    assert (
        srs.build_queue(memories, T0, DAY, teaching_order=["WA:map"], new_allowed=0, size=10) == []
    )


KEYS = [f"K{i}" for i in range(40)]


@settings(max_examples=300, deadline=None)
@given(
    memories=st.dictionaries(st.sampled_from(KEYS), memory_strategy, max_size=40),
    new_allowed=st.integers(0, 30),
    size=st.integers(0, 40),
    focus=st.sets(st.sampled_from(KEYS), max_size=40) | st.none(),
)
def test_practice_rounds_over_random_memories(memories, new_allowed, size, focus):
    """P-M8 over any memories: distinct keys within size and focus; the ordinary queue first; then
    lowest recall first, never a fact answered today or a step not due yet."""
    include = None if focus is None else focus.__contains__
    order = KEYS + [f"N{i}" for i in range(20)]
    plain = srs.build_queue(
        memories, T0, DAY, teaching_order=order, new_allowed=new_allowed, size=size, include=include
    )
    queue = srs.build_queue(
        memories,
        T0,
        DAY,
        teaching_order=order,
        new_allowed=new_allowed,
        size=size,
        include=include,
        practice=True,
    )
    assert len(queue) == len(set(queue)) <= size
    assert queue[: len(plain)] == plain
    assert focus is None or all(key in focus for key in queue if key in memories)
    extra = queue[len(plain) :]
    assert all(key in memories for key in extra)
    recalls = [recall(memories[key]) for key in extra]
    assert recalls == sorted(recalls)
    for key in extra:
        memory = memories[key]
        assert srs.elapsed_days(memory.last_review, T0, DAY.time_zone) > 0
        assert not (memory.in_steps and memory.due > T0)
    # A round left short holds every fact worth practising.
    if len(queue) < size:
        worth = set(srs.practice_order(memories, T0, DAY, include))
        assert worth <= set(queue)
