"""Card games, simulated: a game of the learner's choice (mostly in drill mode) or an assigned
one (in drill mode), played against computer players with the real rules, the drill's questions
answered with the learner's chance of knowing each fact. Pure Python."""

from __future__ import annotations

import datetime as dt

from trainer.facts import Form
from trainer.games import REGISTRY, RandomPlayer, RulePlayer, make_game, play_computer_turns
from trainer.games.base import Params, State
from trainer.games.drill import DrillAnswer, DrillQuestion, RefusedPlay
from trainer.levels import Level
from trainer.modes import MODES
from trainer.results import card_game_result
from trainer.simulate.engine import Simulation, near_rank, plays
from trainer.simulate.history import Task, round_list
from trainer.simulate.learner import CARD_GAME

#: The card games a learner plays; all but Geography War in drill mode (its drill is a long war).
DRILL_GAMES = tuple(slug for slug, game in REGISTRY.games.items() if game.has_choices)
WAR = "geography-war"
#: The review log's mode of each card game (as the registry of modes names it).
GAME_MODES = {mode.slug: mode.mode for mode in MODES if mode.card_game}
CARD_GAMES = round_list("card_games")


@plays(CARD_GAME, *GAME_MODES)
def play_card_game(
    sim: Simulation, slug: str, at: dt.datetime, task: Task | None
) -> tuple[dt.datetime, str | None]:
    """A card game: of the learner's choice (``slug`` is :data:`CARD_GAME`), or the one ``slug``
    names, in drill mode, from ``task``."""
    at = card_game(sim, at) if task is None or slug == CARD_GAME else card_game(sim, at, slug)
    return at, f"game:{sim.history.card_games[-1]['token']}"


def card_game(
    sim: Simulation,
    start: dt.datetime,
    assigned: str | None = None,
    first_leader: int | None = None,
) -> dt.datetime:
    """A card game of the learner's choice, or the ``assigned`` one (in drill mode, as an
    assignment deals it); ``first_leader`` is the seat an earlier game made lead first (Play
    the Ranks after Dashing States in a Combo 1 match, R2), None for the game's own draw."""
    rng = sim.rng
    deck = sim.deck
    if assigned is None:
        slug = rng.choice(DRILL_GAMES) if rng.random() < 0.9 else WAR
        drill = slug != WAR and rng.random() < 0.85
    else:
        slug, drill = assigned, True
    level = sim.learner.game_level
    game = make_game(slug, deck, Params(2, 1, first_leader))
    seed = rng.getrandbits(48)
    token = sim._new_token(CARD_GAME, 12)
    state = game.new_initial_state(seed)
    levels = {1: Level(level)}
    me = RulePlayer(rng) if sim.learner.ability > 0.3 else RandomPlayer(rng)
    now = start
    answered = right = 0
    play_computer_turns(state, levels, seed)
    while not state.is_terminal():
        action = me.choose(game, state.observation(0), state.legal_actions())
        ply = len(state.history)
        now += dt.timedelta(seconds=rng.uniform(4, 14) * sim.learner.speed)
        if drill:
            for answer in drill_answers(sim, state, action, now):
                now += dt.timedelta(milliseconds=rng.randint(20, 200))
                sim._record(
                    answer.fact.key,
                    answer.judgement.verdict,
                    GAME_MODES[slug],
                    answer.form,
                    f"game:{token}",
                    f"{ply}:{answer.fact.key}",
                    now,
                    answer=answer.judgement.given[:200],
                )
                answered += 1
                right += answer.right
        state.apply_action(action)
        play_computer_turns(state, levels, seed)
        now += dt.timedelta(seconds=rng.uniform(1, 3))
    returns = state.returns()
    sim.history.card_games.append(
        {
            "token": token,
            "game": slug,
            "players": 2,
            "first_leader": first_leader,
            "team_size": 1,
            "level": level,
            "drill": drill,
            "seed": seed,
            "actions": list(state.history),
            "ply": len(state.history),
            "result": card_game_result(returns),
            "drill_answers": answered,
            "drill_right": right,
            "created_at": start,
            "updated_at": now,
            "finished_at": now,
        }
    )
    return now


def drill_answers(
    sim: Simulation, state: State, action: int, now: dt.datetime
) -> list[DrillAnswer]:
    """What the learner says with a drill move, judged as the game page judges it.

    A wrong number in GeoPlunge 51 is refused and recorded; the learner then reads the right
    one and plays again, which is the same (move, fact) and so is not recorded twice.
    """
    rng = sim.rng

    def says(question: DrillQuestion) -> str:
        """A rank (typed) or a call (a choice), right with the learner's chance of knowing it."""
        key = question.fact.key
        if not question.choices:
            if rng.random() < sim._chance(key, now):
                return question.expected
            rank = int(question.expected)
            return str(
                near_rank(rank, rng, 1, 2) if rng.random() < 0.4 else near_rank(rank, rng, 3, 12)
            )
        if rng.random() < sim._chance(key, now, Form.CHOICE):
            return question.expected
        if len(question.choices) == 2:
            return question.choices[0] if rng.random() < 0.5 else question.choices[1]
        return rng.choice(question.choices)

    try:
        return state.drill_answers(action, says)
    except RefusedPlay as refused:  # a wrong number in GeoPlunge 51, played right next
        return refused.answers
