"""Combo 1, simulated: a morning or an afternoon match against the computer team, its games dealt
one at a time as the match page deals them and each played by its own mode's simulated player, at
the match's level, until the bell (K1, K2, R2). Pure Python.

Who starts, which game comes next and who won are :mod:`trainer.games.combo`'s rules; each game
is an ordinary row of its mode's list (and its answers its mode's reviews), listed in
``combo_match_games`` as the web lists it in ``combo_match_game``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from trainer.games.combo import (
    ROUND_SECONDS,
    ComboGame,
    GameResult,
    MatchFormat,
    Side,
    computer_pick,
    counted,
    first_player,
    match_winner,
    needs_draw,
    next_game,
    statehood_draw,
)
from trainer.levels import Level
from trainer.quiz import border_up, dashing_states
from trainer.quiz.state_iq import Side as IqSide
from trainer.results import Result
from trainer.simulate.engine import Simulation, plays
from trainer.simulate.history import Task, round_list
from trainer.simulate.modes.border_up import border_up_round
from trainer.simulate.modes.card_games import card_game
from trainer.simulate.modes.dashing import dashing
from trainer.simulate.modes.state_iq import state_iq

COMBO = "combo"
#: The matches, as the columns of ``combo_match`` (without ids and student ids).
COMBO_MATCHES = round_list("combo_matches")
#: Each match's games, as the columns of ``combo_match_game`` but with the match's token
#: (``match_token``) for ``match_id``, which only the database knows.
COMBO_MATCH_GAMES = round_list("combo_match_games")
#: The share of matches that are morning rounds (the rest are afternoon rounds).
MORNING_SHARE = 0.6
#: Each game's result as a side of the match (as the match page reads it).
_WINNER = {Result.WON: Side.A, Result.LOST: Side.B, Result.TIED: None, Result.DRAWN: None}


@plays("combo")
def play_combo(
    sim: Simulation, slug: str, at: dt.datetime, task: Task | None
) -> tuple[dt.datetime, str | None]:
    """A Combo 1 match (Combo 1 is not assignable, so ``task`` is never given). Its games'
    answers are reviewed under their own modes: the match has no review log round token."""
    return combo_match(sim, at), None


def combo_match(sim: Simulation, start: dt.datetime) -> dt.datetime:
    """Play one match from ``start``; returns when its last game ends."""
    rng = sim.rng
    seed = rng.getrandbits(62)
    fmt = MatchFormat.MORNING if rng.random() < MORNING_SHARE else MatchFormat.AFTERNOON
    level = sim.learner.race_level if sim.learner.race_level != "practice" else "easy"
    a, b, draw_winner = statehood_draw(sim.deck, random.Random(f"combo-draw:{seed}"))
    picks: tuple[ComboGame, ComboGame] | None = None
    if fmt is MatchFormat.AFTERNOON:
        if draw_winner is Side.B:
            theirs = computer_pick(seed, ())
            picks = (theirs, rng.choice([g for g in ComboGame if g is not theirs]))
        else:
            mine = rng.choice(list(ComboGame))
            picks = (mine, computer_pick(seed, (mine,)))
    token = sim._new_token(COMBO)
    started_at = start + dt.timedelta(seconds=rng.uniform(5, 40))
    bell_at = started_at + dt.timedelta(seconds=ROUND_SECONDS[fmt])
    match: dict[str, Any] = {
        "token": token,
        "format": fmt.value,
        "level": level,
        "seed": seed,
        "draw": {"a": a.postal, "b": b.postal, "winner": draw_winner.value},
        "picks": None if picks is None else [g.value for g in picks],
        "created_at": start,
        "started_at": started_at,
        "bell_at": bell_at,
        "result": Result.PLAYING,
    }
    sim.history.rows(COMBO_MATCHES).append(match)
    results: list[GameResult] = []
    now = started_at
    with _at_level(sim, level):
        while now < bell_at:  # a game is dealt only before the bell (K2)
            game = next_game(fmt, results, picks)
            assert game is not None  # only a championship ends by itself
            first = None if needs_draw(game, results) else first_player(game, results)
            dealt = now
            row, ended, now = _play(sim, game, now, first)
            seconds = max(0.0, (ended - started_at).total_seconds())
            results.append(GameResult(game, _WINNER[row["result"]], seconds))
            sim.history.rows(COMBO_MATCH_GAMES).append(
                {
                    "match_token": token,
                    "position": len(results) - 1,
                    "game": game.value,
                    "token": row["token"],
                    "first_side": None if first is None else first.value,
                    "created_at": dealt,
                }
            )
            now += dt.timedelta(seconds=rng.uniform(3, 15))  # back to the match page
    winner = match_winner(counted(results, ROUND_SECONDS[fmt]))
    match["result"] = (
        Result.TIED if winner is None else (Result.WON if winner is Side.A else Result.LOST)
    )
    return now


@contextmanager
def _at_level(sim: Simulation, level: str) -> Iterator[None]:
    """The match's games are played against the computer team at the match's level, whatever
    levels the learner picks for their own rounds."""
    own = sim.learner
    sim.learner = dataclasses.replace(own, race_level=level, iq_level=level, game_level=level)
    try:
        yield
    finally:
        sim.learner = own


def _play(
    sim: Simulation, game: ComboGame, at: dt.datetime, first: Side | None
) -> tuple[dict[str, Any], dt.datetime, dt.datetime]:
    """One game of the match by its mode's player: its row, when it was decided (as the match
    page reads it) and when the learner is done with it."""
    history = sim.history
    if game is ComboGame.BORDER_UP:
        done = border_up_round(sim, at)
        row = history.border_up_rounds[-1]
        run = border_up.ComputerRun.draw(Level(row["level"]), row["seed"])
        return row, _decided(row["called_at"], row["revealed_at"], run.call_at), done
    if game is ComboGame.DASHING_STATES:
        done = dashing(sim, at)
        row = history.dashing_rounds[-1]
        call = dashing_states.ComputerRun.draw(Level(row["level"]), row["seed"])
        return row, _decided(row["called_at"], row["created_at"], call.call_at), done
    if game is ComboGame.STATE_IQ:
        iq_first = (
            None if first is None else (IqSide.STUDENT if first is Side.A else IqSide.COMPUTER)
        )
        done = state_iq(sim, at, show_aid=False, first=iq_first)
        row = history.state_iq_games[-1]
        return row, row["finished_at"], done
    leader = None if first is None else (0 if first is Side.A else 1)
    done = card_game(sim, at, game.value, first_leader=leader)
    row = history.card_games[-1]
    return row, row["finished_at"], done


def _decided(called_at: dt.datetime | None, began: dt.datetime, computer_at: float) -> dt.datetime:
    """When a race was decided: the student's call, or the computer team's if it came first."""
    computer = began + dt.timedelta(seconds=computer_at)
    return computer if called_at is None else min(called_at, computer)
