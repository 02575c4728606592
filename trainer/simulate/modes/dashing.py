"""Dashing States, simulated: the learner names and orders the cards, sets the least sure one
aside and calls, in a race against the seeded computer (D1). Pure Python."""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

from trainer.facts import Facet, Fact, Form
from trainer.levels import Level
from trainer.quiz import dashing_states
from trainer.quiz.race import SAME_MOMENT, race, round_result
from trainer.results import Result
from trainer.simulate.engine import Simulation, plays
from trainer.simulate.history import Task, round_list

DASHING = "dashing_states"
#: The facets a Dashing States deal is drawn from (as the web layer does).
DASHING_FACETS = frozenset({Facet.MAP, Facet.CAPITAL})
DASHING_ROUNDS = round_list("dashing_rounds")


@plays("dashing-states")
def play_dashing(
    sim: Simulation, slug: str, at: dt.datetime, task: Task | None
) -> tuple[dt.datetime, str | None]:
    """A Dashing States round; from ``task``, dealt from its scope."""
    at = dashing(sim, at) if task is None else dashing(sim, at, task.facets, task.postals)
    return at, f"{DASHING}:{sim.history.dashing_rounds[-1]['token']}"


def dashing(
    sim: Simulation,
    start: dt.datetime,
    facets: frozenset[Facet] | None = None,
    postals: frozenset[str] | None = None,
) -> dt.datetime:
    rng = sim.rng
    deck = sim.deck
    seed = rng.getrandbits(62)
    deal_rng = random.Random(f"dashing:{seed}")
    asked = (DASHING_FACETS & facets) if facets else DASHING_FACETS
    preferred = [Fact.from_key(key).postal for key in sim._queue(start, 20, asked, postals)]
    if postals:
        preferred += deal_rng.sample(sorted(postals), len(postals))
    cards = dashing_states.deal(preferred, deck, deal_rng)
    level = sim.learner.race_level
    names: dict[int, str] = {}
    capitals: dict[int, str] = {}
    sure: dict[int, float] = {}
    seconds = 3.0
    for i, postal in enumerate(cards):
        p_name = sim._chance(Fact(postal, Facet.MAP).key, start)
        p_capital = sim._chance(Fact(postal, Facet.CAPITAL).key, start)
        knows_name, knows_capital = rng.random() < p_name, rng.random() < p_capital
        names[i] = sim._answer_text(
            Fact(postal, Facet.MAP), Form.TYPED, knows_name
        ) or sim._wrong_text(Fact(postal, Facet.MAP), Form.TYPED, deck[postal])
        capitals[i] = sim._answer_text(
            Fact(postal, Facet.CAPITAL), Form.TYPED, knows_capital
        ) or sim._wrong_text(Fact(postal, Facet.CAPITAL), Form.TYPED, deck[postal])
        sure[i] = p_name + p_capital
        seconds += rng.lognormvariate(math.log(8.0 * sim.learner.speed), 0.3) * (
            1.0 if knows_name and knows_capital else 1.5
        )
    aside = min(sure, key=lambda i: (sure[i], rng.random()))
    names[aside] = capitals[aside] = ""
    order = tuple(
        sorted((i for i in range(len(cards)) if i != aside), key=lambda i: names[i].casefold())
    )
    token = sim._new_token(DASHING)
    computer = None if level == "practice" else dashing_states.ComputerRun.draw(Level(level), seed)
    row: dict[str, Any] = {
        "token": token,
        "level": level,
        "seed": seed,
        "cards": cards,
        "created_at": start,
        "call": None,
        "called_at": None,
        "result": Result.PLAYING,
        "seconds": None,
    }
    sim.history.dashing_rounds.append(row)
    if computer is not None and seconds > computer.call_at + SAME_MOMENT:
        # Too slow: the computer called first and its call decided the race (D1).
        row["result"] = race(None, False, computer)[0]
        return start + dt.timedelta(seconds=seconds)
    call = dashing_states.Call(aside, order, names, capitals)
    judged = dashing_states.judge_call(cards, call, deck)
    called_at = start + dt.timedelta(seconds=seconds)
    result = round_result(seconds, judged.success, computer)
    row.update(
        call={
            "set_aside": aside,
            "order": list(order),
            "names": {str(k): v for k, v in names.items()},
            "capitals": {str(k): v for k, v in capitals.items()},
        },
        called_at=called_at,
        result=result,
        seconds=seconds if judged.success else None,
    )
    now = called_at
    for fact, judgement, ms in dashing_states.reviews(judged, seconds):
        now += dt.timedelta(milliseconds=rng.randint(20, 200))
        sim._record(
            fact.key,
            judgement.verdict,
            DASHING,
            Form.TYPED,
            f"{DASHING}:{token}",
            fact.key,
            now,
            answer=judgement.given,
            duration_ms=ms,
            answered_postal=judgement.answered[0] if len(judgement.answered) == 1 else None,
        )
    return now + dt.timedelta(seconds=rng.uniform(10, 30))
