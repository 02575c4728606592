"""State IQ, simulated: a game against the seeded computer, the learner guessing from the clues
they can read and giving border clues they know (or, sometimes, a state that does not border).
Pure Python."""

from __future__ import annotations

import datetime as dt
import random

from trainer import srs
from trainer.facts import Facet, Fact, Form
from trainer.levels import Level
from trainer.quiz.state_iq import (
    CLUE_FACETS,
    Move,
    Side,
    StateIQ,
    first_guesser_by_draw,
    student_answers,
)
from trainer.simulate.engine import Simulation, plays
from trainer.simulate.history import Task, round_list

STATE_IQ = "state_iq"
#: The facets a State IQ deal is drawn from (as the web layer does).
STATE_IQ_FACETS = frozenset({Facet.POSTAL, Facet.BORDERS, Facet.CAPITAL})
STATE_IQ_GAMES = round_list("state_iq_games")


@plays("state-iq")
def play_state_iq(
    sim: Simulation, slug: str, at: dt.datetime, task: Task | None
) -> tuple[dt.datetime, str | None]:
    """A State IQ game; from ``task``, dealt from its scope and without the aid."""
    if task is None:
        at = state_iq(sim, at)
    else:
        at = state_iq(
            sim,
            at,
            (STATE_IQ_FACETS & task.facets) if task.facets else None,
            task.postals,
            show_aid=False,
        )
    return at, f"{STATE_IQ}:{sim.history.state_iq_games[-1]['token']}"


def state_iq(
    sim: Simulation,
    start: dt.datetime,
    facets: frozenset[Facet] | None = None,
    postals: frozenset[str] | None = None,
    show_aid: bool | None = None,
    first: Side | None = None,
) -> dt.datetime:
    """A State IQ game; ``first`` guesses first when an earlier game decided it (after a won
    Border-Up in a Combo 1 match, P-K2), else the statehood draw decides (R2)."""
    rng = sim.rng
    deck = sim.deck
    seed = rng.getrandbits(62)
    deal_rng = random.Random(f"deal:{seed}")
    keys = sim._queue(start, 1, facets or STATE_IQ_FACETS, postals)
    if keys:
        computer_card = Fact.from_key(keys[0]).postal
    else:
        computer_card = deal_rng.choice(sorted(postals) if postals else [s.postal for s in deck])
    student_card = deal_rng.choice([s.postal for s in deck if s.postal != computer_card])
    if first is None:
        first, _, _ = first_guesser_by_draw(
            deck, random.Random(f"draw:{seed}"), exclude=(computer_card, student_card)
        )
    power = deal_rng.choice(deck.power_cards)
    level = sim.learner.iq_level
    game = StateIQ(deck, power, student_card, computer_card, first, Level(level), seed)
    known: dict[tuple[str, Facet], bool] = {}

    def knows(postal: str, facet: Facet) -> bool:
        if (postal, facet) not in known:
            known[(postal, facet)] = rng.random() < sim._chance(Fact(postal, facet).key, start)
        return known[(postal, facet)]

    def computer() -> None:
        while game.waiting_for() == "computer":
            game.computer_turn()

    moves: list[list[str]] = []
    now = start
    by_name = deck.sorted_by(None)
    computer()
    mistakes = 0
    while (waiting := game.waiting_for()) is not None:
        now += dt.timedelta(seconds=rng.uniform(8, 35) * sim.learner.speed)
        half = game.half
        if waiting == "student_guess":
            # The states the learner cannot rule out: a clue rules a state out only if they know that fact.
            options = [
                s.postal
                for s in by_name
                if s.postal not in half.guesses
                and all(
                    not knows(s.postal, CLUE_FACETS[c.slot.kind]) or c.fits(s, deck)
                    for c in half.clues
                )
            ] or [s.postal for s in by_name if s.postal not in half.guesses]
            postal = rng.choice(options)
            game.guess(postal)
            moves.append(["guess", postal])
        else:
            own = game.student_card
            given = {c.value for c in half.clues}
            unused = [n.postal for n in deck.neighbours(own) if n.postal not in given]
            wrong = [
                p
                for p in sim.info.near[own][:6]
                if p not in unused
                and p not in given
                and p not in half.border_mistakes
                and not deck.borders_between(own, p)
            ]
            if knows(own, Facet.BORDERS) or mistakes >= 2 or not wrong:
                postal = rng.choice(unused)
            else:
                postal = rng.choice(wrong)
                mistakes += 1
            try:
                game.give_border(postal)
            except Move:
                pass  # a state that does not border: kept as a mistake, as the app keeps it
            moves.append(["clue", postal])
        computer()
    token = sim._new_token(STATE_IQ)
    answers = student_answers(game)
    for answer in answers:
        now += dt.timedelta(milliseconds=rng.randint(50, 400))
        sim._record(
            answer.fact.key,
            answer.verdict,
            STATE_IQ,
            Form.TYPED,
            f"{STATE_IQ}:{token}",
            answer.item,
            now,
            answer=answer.given,
            help=srs.Help.RETRY if answer.late else srs.Help.NONE,
            answered_postal=answer.answered_postal,
        )
    student_half = next(h for h in game.halves if h.guesser is Side.STUDENT)
    sim.history.state_iq_games.append(
        {
            "token": token,
            "level": level,
            "power_card": power.id,
            "student_card": student_card,
            "computer_card": computer_card,
            "first_guesser": first.value,
            "seed": seed,
            "moves": moves,
            "move_count": len(moves),
            "recorded": sorted(a.item for a in answers),
            "result": game.result(),
            "student_guesses": student_half.guesses_needed,
            "show_aid": rng.random() < 0.3 if show_aid is None else show_aid,
            "created_at": start,
            "finished_at": now,
        }
    )
    return now
