"""Flashcard review, simulated: sessions of rounds dealt from the queue as the study page deals
them, answered with the learner's chance of knowing each fact. Pure Python."""

from __future__ import annotations

import datetime as dt

from trainer import srs
from trainer.facts import Facet, Verdict
from trainer.review import ROUND_SIZE, deal
from trainer.simulate.engine import Simulation, plays, plays_sessions
from trainer.simulate.history import Task, round_list
from trainer.simulate.learner import REVIEW

STUDY_ROUNDS = round_list("study_rounds")


@plays("review")
def play_review(
    sim: Simulation, slug: str, at: dt.datetime, task: Task | None
) -> tuple[dt.datetime, str | None]:
    """A flashcard round, dealt from ``task``'s scope when there is one."""
    if task is None:
        at, token = review_round(sim, at)
    else:
        at, token = review_round(sim, at, task.facets, task.postals, task.area)
    return at, None if token is None else f"{REVIEW}:{token}"


@plays_sessions(REVIEW)
def play_session(sim: Simulation, start: dt.datetime) -> None:
    """A flashcard session of the learner's own: a few rounds (keen learners do more)."""
    rounds = sim.rng.choice(
        (1, 1, 2, 2, 3, 3, 4, 5) if sim.learner.kind == "keen" else (1, 1, 2, 2, 3, 4)
    )
    review_session(sim, start, rounds)


def review_session(sim: Simulation, start: dt.datetime, rounds: int) -> None:
    now = start
    for _ in range(rounds):
        if now >= sim.end:
            return
        now, token = review_round(sim, now)
        if token is None:
            return
        now += dt.timedelta(seconds=sim.rng.uniform(5.0, 40.0))


def review_round(
    sim: Simulation,
    now: dt.datetime,
    facets: frozenset[Facet] | None = None,
    postals: frozenset[str] | None = None,
    area: str = "",
) -> tuple[dt.datetime, str | None]:
    """One flashcard round dealt from the queue within the focus (None: nothing to study)."""
    rng = sim.rng
    sim._enter_day(now)
    keys = sim._queue(now, ROUND_SIZE, facets, postals)
    if not keys and (facets or postals):
        # An assignment's round with nothing due or new: its answered facts, weakest first.
        keys = sorted(
            (
                k
                for k in sim.memory
                if (facets is None or sim.info.facet_of[k] in facets)
                and (postals is None or k[:2] in postals)
            ),
            key=lambda k: (srs.retrievability(sim.memory[k], now, sim.tz), k),
        )[:ROUND_SIZE]
    if not keys:
        return now, None
    seed = rng.getrandbits(62)
    memories = {key: sim.memory[key] for key in keys if key in sim.memory}
    items = deal(
        keys,
        memories,
        sim.deck,
        seed,
        multiple_choice=sim.learner.multiple_choice,
        recheck=sim.picked,
    )
    token = sim._new_token("review")
    sim.history.study_rounds.append(
        {
            "token": token,
            "seed": seed,
            "items": [[item.fact.key, item.form.value] for item in items],
            "focus": {
                "facets": sorted(f.value for f in facets) if facets else [],
                "area": area,
            },
            "created_at": now,
        }
    )
    round_token = f"{REVIEW}:{token}"
    for n, item in enumerate(items, start=1):
        key = item.fact.key
        knows = rng.random() < sim._chance(key, now, item.form)
        text = sim._answer_text(item.fact, item.form, knows)
        judgement = sim._judged(item.fact, item.form, text)
        duration = sim._duration_ms(key, item.form, judgement.verdict is not Verdict.WRONG)
        if text is None:
            duration = min(duration, int(rng.uniform(2000, 6000)))
        now += dt.timedelta(milliseconds=duration + rng.randint(300, 1500))
        if now >= sim.end:
            return now, token  # the round is left unfinished
        sim._record(
            key,
            judgement.verdict,
            REVIEW,
            item.form,
            round_token,
            str(n),
            now,
            answer=judgement.given,
            duration_ms=duration,
            answered_postal=judgement.answered[0] if len(judgement.answered) == 1 else None,
        )
        now += dt.timedelta(seconds=rng.uniform(2.0, 6.0))  # reading the feedback
    return now, token
