"""Dealing from a student's weakest facts without letting the teaching order give the deal away.

A deal that always took the first state of the student's queue was the same for every new
student (Washington, the first state of the teaching order, was every State IQ computer card), so
the answer could be known before the game. Every mode that deals from the queue draws among the
first few states of it instead, with the round's own seeded generator, so a round still replays
from its seed and still practises what the student knows least.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

#: How many of the student's weakest states a deal draws from: enough that the deal cannot be
#: guessed (one of ten), few enough that it still practises what they know least.
POOL = 10


def weakest_pool(candidates: Iterable[str], size: int = POOL) -> list[str]:
    """The first ``size`` different states of ``candidates`` (postal codes, weakest first)."""
    return list(dict.fromkeys(candidates))[:size]


def draw_weakest(
    candidates: Iterable[str], count: int, rng: random.Random, pool: int = POOL
) -> list[str]:
    """``count`` different states drawn by ``rng`` among the first ``max(pool, count)`` different
    ``candidates`` (the student's due and weakest first, then new ones in teaching order).

    Fewer come back when there are fewer candidates; the caller fills the deal from elsewhere.
    """
    states = weakest_pool(candidates, max(pool, count))
    return rng.sample(states, min(count, len(states)))
