"""Review logs of simulated students whose memory follows FSRS-6 with known weights (for the fit's tests).

A student studies once a day at a random hour, scheduled by the app's scheduler (``srs.schedule``
with the weights the app uses), while their true memory follows ``srs.schedule`` under the true
weights with the same ratings. Each fact is met as a pick (weak evidence, rated Hard as P-M5 rates a
first right pick) and then answered by typing: right (Good) with the true predicted recall, else
wrong (Again). Learning steps due within the session are answered in it.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from trainer import srs
from trainer.fit import LoggedReview

UTC = dt.UTC
START = dt.datetime(2026, 1, 5, 4, 0, tzinfo=UTC)


def forgetful_weights() -> srs.Weights:
    """A student who forgets faster than the standard weights say: every first stability (w0-w3)
    a quarter as long, and stability growing less after each recall (w8 1.0 instead of 1.87)."""
    w = list(srs.DEFAULT_WEIGHTS)
    for i in range(4):
        w[i] *= 0.25
    w[8] = 1.0
    return srs.check_weights(w)


def simulate(true_weights: srs.Weights = srs.DEFAULT_WEIGHTS, **options: Any) -> list[LoggedReview]:
    """The review log of one simulated student, oldest first (the options of
    :func:`simulate_with_memories`)."""
    return simulate_with_memories(true_weights, **options)[0]


def simulate_with_memories(
    true_weights: srs.Weights = srs.DEFAULT_WEIGHTS,
    *,
    seed: int = 1,
    days: int = 60,
    facts: int = 150,
    new_per_day: int = 10,
    time_zone: str = "UTC",
    app_weights: srs.Weights | None = None,
    keys: list[str] | None = None,
) -> tuple[list[LoggedReview], dict[str, srs.Memory], list[srs.Memory]]:
    """The review log of one simulated student (oldest first), the app's memory of each fact at
    the end, and the app's memory after each answer of the log. ``keys`` names the facts (by
    default ``facts`` made-up ones)."""
    rng = random.Random(seed)
    keys = keys[:facts] if keys is not None else [f"F{n:03d}:map" for n in range(facts)]
    app: dict[str, srs.Memory] = {}
    true: dict[str, srs.Memory] = {}
    log: list[LoggedReview] = []
    after: list[srs.Memory] = []

    def answer(key: str, at: dt.datetime, strong: bool) -> None:
        if key not in app:
            app[key] = true[key] = srs.new_memory(at)
        if strong:
            recalled = (
                rng.random() < srs.retrievability(true[key], at, time_zone, true_weights)
                if true[key].last_review
                else False
            )
            rating = srs.Rating.GOOD if recalled else srs.Rating.AGAIN
        else:
            rating = srs.Rating.HARD
        seed_text = f"{key}:{len(log)}"
        app[key] = srs.schedule(
            app[key], rating, at, seed=seed_text, time_zone=time_zone, weights=app_weights
        )
        true[key] = srs.schedule(
            true[key], rating, at, seed=seed_text, time_zone=time_zone, weights=true_weights
        )
        log.append(LoggedReview(key, at, int(rating), strong))
        after.append(app[key])

    introduced = 0
    for day in range(days):
        now = START + dt.timedelta(days=day, hours=rng.uniform(8, 18))
        session_end = now + dt.timedelta(minutes=40)
        for key in [k for k in keys[:introduced] if app[k].due <= now + dt.timedelta(hours=10)]:
            answer(key, now, True)
            now += dt.timedelta(seconds=20)
        for key in keys[introduced : introduced + new_per_day]:
            answer(key, now, False)
            now += dt.timedelta(seconds=20)
        introduced = min(facts, introduced + new_per_day)
        # Steps due within the session are answered in it.
        while True:
            soon = sorted((m.due, k) for k, m in app.items() if m.in_steps and m.due <= session_end)
            if not soon:
                break
            due, key = soon[0]
            now = max(now, due)
            answer(key, now, True)
            now += dt.timedelta(seconds=20)
    return log, app, after
