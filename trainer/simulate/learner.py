"""The simulated learners: who they are and how they study, drawn from ``(seed, index)``. Pure Python."""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass

from trainer import srs
from trainer.modes import MODES

#: The activity of a flashcard review session (the review log's mode).
REVIEW = "review"
#: The activity of a card game of the learner's choice (one entry in the mix for all of them).
CARD_GAME = "card_game"
#: The kinds of learner, with how likely each is, and their chance of studying on a weekday.
KINDS = (
    ("keen", 0.2, 0.85),
    ("regular", 0.4, 0.6),
    ("occasional", 0.28, 0.32),
    ("rare", 0.12, 0.1),
)
#: Study on a weekend is this much less likely than on a weekday.
WEEKEND_FACTOR = 0.45
#: The card games' share of sessions, all together (the learner then picks a game).
CARD_GAME_SESSIONS = 0.07
#: The usual mix of activities in a session (each learner's own mix varies around it): each mode's
#: share (:attr:`trainer.modes.Mode.sessions`), by its review log mode, then the card games'.
ACTIVITY_MIX = (
    *((mode.mode, mode.sessions) for mode in MODES if mode.sessions and not mode.card_game),
    (CARD_GAME, CARD_GAME_SESSIONS),
)


@dataclass(frozen=True)
class Learner:
    """One simulated student: who they are and how they study, drawn from ``(seed, index)``."""

    index: int
    kind: str
    #: Log-odds added to every chance of knowing a fact (0 is typical).
    ability: float
    #: Multiplies every answer time (below 1 is quicker).
    speed: float
    weekday_rate: float
    weekend_rate: float
    #: Days into the period before their first study, and the day after which they stop (None: never).
    starts_after: int
    stops_after: int | None
    time_zone: str
    desired_retention: float
    new_per_day: int
    multiple_choice: bool
    #: (activity, weight) of the sessions they choose.
    mix: tuple[tuple[str, float], ...]
    race_level: str
    game_level: str
    iq_level: str
    #: The chance that a session, while an assignment is open and unfinished, goes to it.
    diligence: float


def make_learner(
    seed: int,
    index: int,
    days: int,
    time_zone: str = "America/Chicago",
    extra_mix: tuple[tuple[str, float], ...] = (),
) -> Learner:
    """The learner ``index`` of a school seeded ``seed``, for a period of ``days`` days.

    ``extra_mix`` adds (activity, usual share) pairs to :data:`ACTIVITY_MIX` for this learner (an
    activity may also be the slug of a mode that logs no answers of its own, such as Combo 1).
    Their weights are drawn last, so every other trait is the learner's without them.
    """
    rng = random.Random(f"learner:{seed}:{index}")
    roll = rng.random()
    kind, rate = KINDS[-1][0], KINDS[-1][2]
    for name, share, weekday in KINDS:
        if roll < share:
            kind, rate = name, weekday
            break
        roll -= share
    weekday_rate = min(0.97, max(0.03, rate + rng.uniform(-0.08, 0.08)))
    ability = rng.gauss(0.3, 0.8) + (0.3 if kind == "keen" else 0.0)
    speed = math.exp(rng.gauss(0.0, 0.25) - 0.1 * ability)
    starts_after = 0 if rng.random() < 0.6 else rng.randint(0, max(0, days // 8))
    stops_after = (
        rng.randint(days // 3, max(days // 3, days - 8))
        if rng.random() < 0.1 and days >= 12
        else None
    )
    mix = tuple((activity, weight * rng.uniform(0.5, 1.6)) for activity, weight in ACTIVITY_MIX)
    strong = ability + rng.gauss(0, 0.4)
    race_level = (
        "practice"
        if rng.random() < 0.15
        else ("hard" if strong > 1.3 else "medium" if strong > 0.5 else "easy")
    )
    learner = Learner(
        index=index,
        kind=kind,
        ability=ability,
        speed=speed,
        weekday_rate=weekday_rate,
        weekend_rate=weekday_rate * WEEKEND_FACTOR,
        starts_after=starts_after,
        stops_after=stops_after,
        time_zone=time_zone,
        desired_retention=srs.DEFAULT_RETENTION,
        new_per_day=rng.choices((10, 20, 30), weights=(0.15, 0.7, 0.15))[0],
        multiple_choice=rng.random() < 0.8,
        mix=mix,
        race_level=race_level,
        game_level="medium" if strong > 0.4 else "easy",
        iq_level=rng.choice(("easy", "easy", "medium", "medium", "hard")),
        diligence=min(0.95, max(0.05, rng.gauss(0.55, 0.25) + (0.2 if kind == "keen" else 0.0))),
    )
    if not extra_mix:
        return learner
    extra = tuple((activity, weight * rng.uniform(0.5, 1.6)) for activity, weight in extra_mix)
    return dataclasses.replace(learner, mix=mix + extra)
