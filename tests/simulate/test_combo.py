"""The simulated Combo 1 match (issue #20): its games dealt and settled by the rules of
:mod:`trainer.games.combo` (K1, K2, R2, P-K2), its rows the columns of the web's tables."""

from __future__ import annotations

import dataclasses
import datetime as dt
from functools import cache
from typing import Any

import pytest

from trainer.cards import Deck, load_deck
from trainer.games.combo import (
    ROUND_SECONDS,
    ComboGame,
    GameResult,
    MatchFormat,
    Side,
    first_player,
    match_winner,
    needs_draw,
    next_game,
)
from trainer.levels import Level
from trainer.modes import MODES
from trainer.quiz import border_up, dashing_states
from trainer.simulate import History, make_learner, simulate, simulate_round
from trainer.web.models import ComboMatch, ComboMatchGame

AT = dt.datetime(2025, 3, 14, 15, 0, tzinfo=dt.UTC)
SEEDS = range(1, 9)
_LISTS = {
    ComboGame.BORDER_UP: "border_up_rounds",
    ComboGame.STATE_IQ: "state_iq_games",
    ComboGame.DASHING_STATES: "dashing_rounds",
    ComboGame.PLAY_THE_RANKS: "card_games",
}
_WINNER = {"won": Side.A, "lost": Side.B, "tied": None, "drawn": None}


@cache
def _deck() -> Deck:
    return load_deck()


@cache
def _match(seed: int) -> History:
    return simulate_round(_deck(), "combo", AT, seed=seed)


def _decided(game: ComboGame, row: dict[str, Any]) -> dt.datetime:
    """When the match page reads the game as over: a race when the first call came."""
    if game is ComboGame.BORDER_UP:
        run = border_up.ComputerRun.draw(Level(row["level"]), row["seed"])
        computer = row["revealed_at"] + dt.timedelta(seconds=run.call_at)
    elif game is ComboGame.DASHING_STATES:
        call = dashing_states.ComputerRun.draw(Level(row["level"]), row["seed"])
        computer = row["created_at"] + dt.timedelta(seconds=call.call_at)
    else:
        return row["finished_at"]
    return computer if row["called_at"] is None else min(row["called_at"], computer)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_match_is_dealt_and_settled_by_the_rules(seed: int) -> None:
    history = _match(seed)
    (match,) = history.rows("combo_matches")
    entries = history.rows("combo_match_games")
    fmt = MatchFormat(match["format"])
    picks: tuple[ComboGame, ComboGame] | None = None
    if match["picks"] is not None:
        picks = (ComboGame(match["picks"][0]), ComboGame(match["picks"][1]))
    assert (picks is None) == (fmt is MatchFormat.MORNING)
    bell = match["started_at"] + dt.timedelta(seconds=ROUND_SECONDS[fmt])
    assert match["bell_at"] == bell
    results: list[GameResult] = []
    for position, entry in enumerate(entries):
        assert entry["match_token"] == match["token"] and entry["position"] == position
        game = ComboGame(entry["game"])
        assert game is next_game(fmt, results, picks)  # the format's order (K2)
        assert entry["created_at"] < bell  # dealt before the bell
        first = None if needs_draw(game, results) else first_player(game, results)
        assert entry["first_side"] == (None if first is None else first.value)  # P-K2
        (row,) = [r for r in getattr(history, _LISTS[game]) if r["token"] == entry["token"]]
        assert row["level"] == match["level"]  # the computer team's level, every game
        if game is ComboGame.STATE_IQ and first is not None:
            assert row["first_guesser"] == ("student" if first is Side.A else "computer")
        if game is ComboGame.PLAY_THE_RANKS:
            assert row["first_leader"] == (None if first is None else "ab".index(first.value))
        at = (_decided(game, row) - match["started_at"]).total_seconds()
        results.append(GameResult(game, _WINNER[row["result"]], at))
    assert entries
    counted = [
        r
        for r in results
        if r.finished_at is not None
        and r.finished_at <= (bell - match["started_at"]).total_seconds()
    ]
    winner = match_winner(counted)  # K1: only the games finished by the bell count
    assert match["result"] == ("tied" if winner is None else "won" if winner is Side.A else "lost")


def test_both_formats_are_played() -> None:
    assert {_match(seed).rows("combo_matches")[0]["format"] for seed in SEEDS} == {
        "morning",
        "afternoon",
    }


def test_the_rows_are_the_columns_of_the_web_tables() -> None:
    """As the demo school writes them: without ids and student ids; a game names its match by
    token, since only the database knows the match's id."""
    history = _match(1)
    matches = set(ComboMatch.__table__.columns.keys()) - {"id", "student_id"}
    games = set(ComboMatchGame.__table__.columns.keys()) - {"id", "match_id"}
    assert {frozenset(r) for r in history.rows("combo_matches")} == {frozenset(matches)}
    assert {frozenset(r) for r in history.rows("combo_match_games")} == {
        frozenset(games | {"match_token"})
    }


def test_no_match_in_a_learners_own_sessions() -> None:
    """Combo 1 has no share of sessions, so the seeded histories of the other modes stay as they were."""
    assert MODES["combo"].sessions == 0
    end = dt.datetime(2025, 3, 14, 23, 30, tzinfo=dt.UTC)
    history = simulate(_deck(), 2, seed=7, days=20, end=end)
    assert history.rows("combo_matches") == [] and history.rows("combo_match_games") == []


def test_an_extra_share_of_sessions_plays_matches() -> None:
    """The demo school adds Combo 1 to its learners' own sessions (``extra_mix``): the learner is
    the same otherwise (its weight is drawn last), and their free sessions include matches."""
    extra = (("combo", 0.5),)
    plain, with_combo = make_learner(7, 2, 20), make_learner(7, 2, 20, extra_mix=extra)
    assert dataclasses.replace(with_combo, mix=plain.mix) == plain
    assert with_combo.mix[: len(plain.mix)] == plain.mix and with_combo.mix[-1][0] == "combo"
    end = dt.datetime(2025, 3, 14, 23, 30, tzinfo=dt.UTC)
    history = simulate(_deck(), 2, seed=7, days=20, end=end, extra_mix=extra)
    matches, games = history.rows("combo_matches"), history.rows("combo_match_games")
    assert matches and {g["match_token"] for g in games} == {m["token"] for m in matches}
