"""Border-Up, simulated: the learner finds two groups around centres they know the borders of
(sometimes with a hint, sometimes with a card that does not border), in a race against the
seeded computer. Pure Python."""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

from trainer import srs
from trainer.facts import Facet, Fact, Form
from trainer.levels import Level
from trainer.quiz import border_up
from trainer.quiz.race import SAME_MOMENT, race, round_result
from trainer.results import Result
from trainer.simulate.engine import Simulation, plays
from trainer.simulate.history import Task, round_list

BORDER_UP = "border_up"
BORDER_UP_ROUNDS = round_list("border_up_rounds")


@plays("border-up")
def play_border_up(
    sim: Simulation, slug: str, at: dt.datetime, task: Task | None
) -> tuple[dt.datetime, str | None]:
    """A Border-Up round; from ``task``, leaning on its states."""
    at = border_up_round(sim, at) if task is None else border_up_round(sim, at, task.postals)
    return at, f"{BORDER_UP}:{sim.history.border_up_rounds[-1]['token']}"


def border_up_round(
    sim: Simulation, start: dt.datetime, postals: frozenset[str] | None = None
) -> dt.datetime:
    rng = sim.rng
    deck = sim.deck
    seed = rng.getrandbits(62)
    weak = [
        Fact.from_key(key).postal
        for key in sim._queue(start, 10, frozenset({Facet.BORDERS}), postals)
    ]
    if postals:
        weak += random.Random(f"lean:{seed}").sample(sorted(postals), len(postals))
    dealt = border_up.deal(deck, random.Random(f"border-up:{seed}"), lean_on=weak)
    hand = list(dealt.student)
    level = sim.learner.race_level if sim.learner.race_level != "practice" else "easy"
    computer = border_up.ComputerRun.draw(Level(level), seed)
    revealed_at = start + dt.timedelta(seconds=rng.uniform(3, 12))
    helped = rng.random() < 0.12
    solutions = border_up.solutions(hand, deck)
    first, second = rng.choice(solutions)
    centres = [border_up.centres(group, deck)[0] for group in (first, second)]
    p = sum(sim._chance(Fact(c, Facet.BORDERS).key, start) for c in centres) / 2
    success = rng.random() < min(0.97, p + (0.25 if helped else 0.0) + 0.15)
    called = [sorted(first), sorted(second)]
    if not success:
        # One group is right; in the other a card that does not border its centre slipped in.
        centre = centres[1]
        swap = [c for c in hand if c not in first | second and not deck.borders_between(c, centre)]
        if swap:
            kept = sorted(c for c in second if c != centre)
            called[1] = sorted([centre, kept[0], rng.choice(swap)])
    seconds = rng.lognormvariate(math.log(40.0 * sim.learner.speed), 0.35) * (
        1.3 if not success else 1.0
    )
    token = sim._new_token(BORDER_UP, 18)
    row: dict[str, Any] = {
        "token": token,
        "level": level,
        "seed": seed,
        "hand": hand,
        "computer_hand": list(dealt.computer),
        "created_at": start,
        "revealed_at": revealed_at,
        "hint": border_up.hint(hand, deck) if helped else None,
        "call": None,
        "called_at": None,
        "result": Result.PLAYING,
        "seconds": None,
    }
    sim.history.border_up_rounds.append(row)
    if seconds > computer.call_at + SAME_MOMENT:
        row["result"] = race(None, False, computer)[0]
        return revealed_at + dt.timedelta(seconds=seconds)
    results = border_up.judge_call(hand, called, deck)
    ok = border_up.call_succeeds(results)
    called_at = revealed_at + dt.timedelta(seconds=seconds)
    row.update(
        call=called,
        called_at=called_at,
        result=round_result(seconds, ok, computer),
        seconds=seconds if ok else None,
    )
    now = called_at
    for review in border_up.reviews(results, helped=helped):
        now += dt.timedelta(milliseconds=rng.randint(20, 200))
        sim._record(
            review.fact.key,
            review.verdict,
            BORDER_UP,
            Form.CHOICE,
            f"{BORDER_UP}:{token}",
            review.item,
            now,
            help=srs.Help.HINT if review.helped else srs.Help.NONE,
        )
    return now + dt.timedelta(seconds=rng.uniform(10, 30))
