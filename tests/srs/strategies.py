"""Hypothesis strategies shared by the scheduling tests."""

from __future__ import annotations

import datetime as dt

from hypothesis import strategies as st

from trainer.srs import Memory, MemoryState

#: The moment the property tests look at (a Monday afternoon, UTC).
T0 = dt.datetime(2026, 3, 2, 15, 0, tzinfo=dt.UTC)

#: Any memory: every state and step, stabilities from hours to a year, dues a month either side
#: of :data:`T0`, last reviews up to 400 days before it.
memory_strategy = st.builds(
    Memory,
    state=st.sampled_from(list(MemoryState)),
    step=st.one_of(st.none(), st.integers(0, 2)),
    stability=st.floats(0.1, 400),
    difficulty=st.floats(1, 10),
    due=st.integers(-30 * 24 * 60, 30 * 24 * 60).map(lambda m: T0 + dt.timedelta(minutes=m)),
    last_review=st.integers(1, 400 * 24 * 60).map(lambda m: T0 - dt.timedelta(minutes=m)),
)
