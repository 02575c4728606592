"""The tournament board (:mod:`trainer.games.tournament_board`): a Combo 1 class tournament as it
stands, from plain records (K1-K4; the project's P-K1, P-K3, P-K5).

Everything here is pure Python: no app, no database. The board is built the way the teacher's
pages build it, from the teams, the rounds' matches and the playoff and championship games.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.games.combo import ComboGame, championship_winner
from trainer.games.tournament import (
    ROUNDS,
    GameStage,
    MatchOutcome,
    Stage,
    finalists,
    pair_round,
)
from trainer.games.tournament_board import (
    CHAMPIONSHIP_GAMES,
    DueGame,
    RoundMatch,
    StageGame,
    Team,
    TournamentBoard,
    TournamentState,
    game_title,
    is_morning,
    round_minutes,
    round_seconds_left,
)

T0 = dt.datetime(2025, 3, 1, 9, 0, tzinfo=dt.UTC)
SEED = 20250301
BU = ComboGame.BORDER_UP


def make_teams(n: int) -> list[Team]:
    """Teams with ids 10, 20, ... (not their numbers, so a mix-up shows)."""
    return [Team(10 * i, i, f"Team {i}", (f"s{i}a", f"s{i}b")) for i in range(1, n + 1)]


def board(
    teams: list[Team],
    matches: Sequence[RoundMatch] = (),
    games: Sequence[StageGame] = (),
    *,
    stage: Stage = Stage.ROUNDS,
    number: int | None = None,
    seed: int = SEED,
    clock: dt.datetime | None = None,
) -> TournamentBoard:
    """A board; the round under way defaults to the last round with a match (0 with none)."""
    if number is None:
        number = max((m.round for m in matches), default=0)
    return TournamentBoard(TournamentState(stage, number, seed, clock), teams, matches, games)


def result(
    match_id: int, number: int, a: int, b: int | None, a_games: int, b_games: int, tied: int = 0
) -> RoundMatch:
    """An entered match (or a bye, ``b`` None), entered ``match_id`` minutes after T0."""
    at = T0 + dt.timedelta(minutes=match_id)
    if b is None:
        return RoundMatch(match_id, number, a, None, a, at)
    winner = a if a_games > b_games else b if b_games > a_games else None
    return RoundMatch(match_id, number, a, b, winner, at, a_games, b_games, tied)


class Clock:
    """Strictly increasing entry times."""

    def __init__(self) -> None:
        self.at = T0

    def tick(self) -> dt.datetime:
        self.at += dt.timedelta(seconds=30)
        return self.at


def play_rounds(
    teams: list[Team],
    rng: random.Random,
    through: int,
    seed: int = SEED,
    clock: Clock | None = None,
) -> list[RoundMatch]:
    """Rounds 1 to ``through`` paired as the app pairs them (P-K5), with random results (K1)."""
    clock = clock or Clock()
    ids = [t.id for t in teams]
    matches: list[RoundMatch] = []
    for number in range(1, through + 1):
        outcomes = [
            MatchOutcome(m.round, m.a, m.b, m.a if m.b is None else m.winner) for m in matches
        ]
        for p in pair_round(ids, outcomes, number, random.Random(f"{seed}/round/{number}")):
            match_id = len(matches) + 1
            if p.b is None:
                matches.append(RoundMatch(match_id, number, p.a, None, p.a, clock.tick()))
                continue
            a_games, b_games = rng.randint(0, 3), rng.randint(0, 3)
            winner = p.a if a_games > b_games else p.b if b_games > a_games else None
            matches.append(
                RoundMatch(
                    match_id,
                    number,
                    p.a,
                    p.b,
                    winner,
                    clock.tick(),
                    a_games,
                    b_games,
                    rng.randint(0, 1),
                )
            )
    return matches


def unentered(match: RoundMatch) -> RoundMatch:
    """The match as it was before its result (a bye always has its win)."""
    if match.b is None:
        return match
    return dataclasses.replace(
        match, winner=None, entered_at=None, a_games=None, b_games=None, tied_games=None
    )


def finish(
    teams: list[Team], matches: list[RoundMatch], rng: random.Random, seed: int = SEED
) -> tuple[list[TournamentBoard], list[StageGame]]:
    """After round 8, the playoffs and the championship played to the end as the teacher's page
    enters them (K4, P-K1, P-K3), with random results: every board on the way, and the games."""
    first = board(teams, matches, seed=seed, number=ROUNDS)
    assert first.qualification is not None
    stage = Stage.PLAYOFFS if first.qualification.needs_playoff else Stage.CHAMPIONSHIP
    games: list[StageGame] = []
    boards = []
    for _ in range(200):
        now = board(teams, matches, games, stage=stage, number=ROUNDS, seed=seed)
        boards.append(now)
        due = now.due
        if due is None:
            break
        winner = rng.choice([due.a, due.b, due.a, due.b, None])
        games.append(StageGame(due.stage, due.number, due.game, due.a, due.b, winner))
        after = board(teams, matches, games, stage=stage, number=ROUNDS, seed=seed)
        if stage == Stage.PLAYOFFS and after.finals is not None:
            stage = Stage.CHAMPIONSHIP
        elif stage == Stage.CHAMPIONSHIP and after.champion_id is not None:
            stage = Stage.FINISHED
    else:  # pragma: no cover - the random results would have to tie 200 times
        pytest.fail("the tournament never ended")
    return boards, games


# --- The rounds and the standings --------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=7),
    rounds=st.integers(min_value=0, max_value=ROUNDS),
    entered=st.floats(min_value=0, max_value=1),
    rng=st.randoms(use_true_random=False),
)
def test_standings_ranks(n: int, rounds: int, entered: float, rng: random.Random) -> None:
    """P-K5, K3: standings order teams by match wins (a bye counts as a win); equal wins share a
    place, so the places start at 1, never go down, and a team's place is one more than the number
    of teams with more wins. Only complete rounds count: the one under way shows once it is."""
    teams = make_teams(n)
    matches = play_rounds(teams, rng, rounds)
    current = [m for m in matches if m.round == rounds]
    keep = int(len(current) * entered)
    matches = [m for m in matches if m.round < rounds] + [
        m if i < keep else unentered(m) for i, m in enumerate(current)
    ]
    now = board(teams, matches, number=rounds)
    complete = rounds > 0 and all(m.entered for m in now.current)
    assert now.complete(rounds) is complete
    assert now.last_complete_round == (rounds if complete else rounds - 1)
    assert now.missing == [m for m in now.current if not m.entered]
    assert now.rounds_done is (rounds == ROUNDS and complete)

    rows = now.standings()
    assert sorted(row.team.id for row in rows) == sorted(t.id for t in teams)
    ranks = [row.rank for row in rows]
    assert ranks[0] == 1
    assert ranks == sorted(ranks)
    wins = {row.team.id: row.standing.wins for row in rows}
    for row in rows:
        assert row.rank == 1 + sum(1 for w in wins.values() if w > row.standing.wins)
        assert now.wins_of(row.team.id) == row.standing.wins
    counted = [m for m in matches if m.round <= now.last_complete_round]
    assert sum(wins.values()) == sum(1 for m in counted if m.winner is not None)


def test_standings_share_places() -> None:
    """K3: byes count as wins; teams level on wins share the place, the next place skips."""
    teams = make_teams(3)
    matches = [result(1, 1, 10, 20, 3, 1), result(2, 1, 30, None, 0, 0)]
    rows = board(teams, matches).standings()
    assert [(row.rank, row.team.name, row.standing.wins) for row in rows] == [
        (1, "Team 1", 1),
        (1, "Team 3", 1),
        (3, "Team 2", 0),
    ]


def test_a_round_under_way_is_not_in_the_standings() -> None:
    """K3: the standings are those after the last complete round."""
    teams = make_teams(4)
    matches = [
        result(1, 1, 10, 20, 3, 1),
        result(2, 1, 30, 40, 1, 3),
        result(3, 2, 10, 40, 2, 1),
        unentered(result(4, 2, 20, 30, 0, 0)),
    ]
    now = board(teams, matches)
    assert now.last_complete_round == 1 and not now.complete(2)
    assert [m.id for m in now.missing] == [4]
    assert {row.team.id: row.standing.wins for row in now.standings()} == {
        10: 1,
        20: 0,
        30: 0,
        40: 1,
    }
    assert len(now.outcomes()) == 3 and len(now.outcomes(1)) == 2


def test_before_round_one() -> None:
    """Before round 1 is paired nothing is complete and everyone shares first place."""
    now = board(make_teams(4))
    assert now.current == [] and now.missing == [] and not now.complete(0)
    assert now.last_complete_round == -1 and not now.rounds_done
    assert {row.rank for row in now.standings()} == {1}
    assert now.undoable is None and now.due is None and now.qualification is None


def test_records_are_sorted_and_checked() -> None:
    """The board reads matches by round and id and games by number, whatever order they come in;
    a team id twice, or a game of a round's match, is refused."""
    teams = make_teams(4)
    matches = [result(3, 2, 10, 30, 1, 0), result(1, 1, 10, 20, 1, 0), result(2, 1, 30, 40, 1, 0)]
    assert [m.id for m in board(teams, matches).matches] == [1, 2, 3]
    with pytest.raises(ValueError, match="twice"):
        board([*teams, teams[0]])
    with pytest.raises(ValueError, match="playoff and championship"):
        board(teams, games=[StageGame(GameStage.MATCH, 1, BU, 10, 20, 10)])


# --- The sentences, the titles and the clock ---------------------------------------------------


def test_describe_match() -> None:
    """K1: more games won wins the match, equal games is a tied match; K3: a bye is a win."""
    now = board(make_teams(3))
    assert (
        now.describe_match(result(1, 1, 10, 20, 3, 1, 1))
        == "Team 1 3–1 Team 2, 1 tied: Team 1 wins"
    )
    assert now.describe_match(result(1, 1, 10, 20, 2, 2)) == "Team 1 2–2 Team 2: a tied match"
    assert now.describe_match(result(1, 1, 30, None, 0, 0)) == "Team 3 has a bye (counts as a win)"
    waiting = RoundMatch(1, 1, 20, 30)
    assert now.describe_match(waiting) == "Team 2 vs Team 3: no result yet"


def test_describe_game() -> None:
    """K4: "Game n of 4", then tie-breakers; P-K1: a tied playoff game is replayed; P-K3: so is a
    tied tie-breaker; a tied game of the four is just a tie."""
    now = board(make_teams(2))
    playoff = StageGame(GameStage.PLAYOFF, 2, BU, 10, 20, None)
    assert (
        now.describe_game(playoff)
        == "Playoff game 2, Border-Up: Team 1 vs Team 2, a tie (replayed)"
    )
    game = StageGame(GameStage.CHAMPIONSHIP, 2, ComboGame.STATE_IQ, 10, 20, None)
    assert now.describe_game(game) == "Game 2 of 4, State IQ: Team 1 vs Team 2, a tie"
    breaker = StageGame(GameStage.CHAMPIONSHIP, 5, BU, 10, 20, None)
    assert (
        now.describe_game(breaker) == "Tie-breaker 1, Border-Up: Team 1 vs Team 2, a tie (replayed)"
    )
    won = dataclasses.replace(breaker, winner=20)
    assert now.describe_game(won) == "Tie-breaker 1, Border-Up: Team 1 vs Team 2, Team 2 won"


def test_names() -> None:
    now = board(make_teams(3))
    assert now.name(None) == ""
    assert now.names([10]) == "Team 1"
    assert now.names((10, 20)) == "Team 1 and Team 2"
    assert now.names([10, 20, 30]) == "Team 1, Team 2 and Team 3"


def test_game_title() -> None:
    """K4: four championship games, then Border-Up tie-breakers."""
    assert [game_title(n) for n in (1, CHAMPIONSHIP_GAMES, CHAMPIONSHIP_GAMES + 2)] == [
        "Game 1 of 4",
        "Game 4 of 4",
        "Tie-breaker 2",
    ]


def test_round_lengths() -> None:
    """K2: rounds 1-4 are morning rounds of 20 minutes, rounds 5-8 afternoon rounds of 12."""
    assert [is_morning(n) for n in range(1, ROUNDS + 1)] == [True] * 4 + [False] * 4
    assert [round_minutes(n) for n in range(1, ROUNDS + 1)] == [20] * 4 + [12] * 4
    with pytest.raises(ValueError):
        round_minutes(0)


def test_seconds_left() -> None:
    """K2: the round clock runs from its start, may go below 0, and only in a round under way."""
    teams = make_teams(4)
    started = T0 + dt.timedelta(minutes=5)
    later = started + dt.timedelta(minutes=3)
    running = board(teams, number=1, clock=started)
    assert running.seconds_left(later) == 20 * 60 - 180
    assert board(teams, number=5, clock=started).seconds_left(later) == 12 * 60 - 180
    assert running.seconds_left(started + dt.timedelta(minutes=25)) == -300
    assert board(teams, number=1).seconds_left(later) is None
    assert board(teams, number=0, clock=started).seconds_left(later) is None
    assert board(teams, stage=Stage.PLAYOFFS, number=8, clock=started).seconds_left(later) is None
    assert round_seconds_left(Stage.ROUNDS, 2, started, later) == 1020


# --- What may be undone ------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=7),
    rounds=st.integers(min_value=1, max_value=ROUNDS),
    rng=st.randoms(use_true_random=False),
)
def test_undoable_in_the_rounds_is_the_last_entered(
    n: int, rounds: int, rng: random.Random
) -> None:
    """The teacher's undo takes back only the current round's result entered last (never a bye,
    never an earlier round): entered in any order, the one entered last is the one offered."""
    teams = make_teams(n)
    matches = play_rounds(teams, rng, rounds)
    earlier = [m for m in matches if m.round < rounds]
    current = [unentered(m) for m in matches if m.round == rounds]
    now = board(teams, earlier + current)
    assert now.undoable is None
    clock = Clock()
    clock.at = T0 + dt.timedelta(days=1)
    order = [m for m in current if m.b is not None]
    rng.shuffle(order)
    entered: dict[int, RoundMatch] = {}
    for match in order:
        entered[match.id] = dataclasses.replace(
            match, winner=match.a, entered_at=clock.tick(), a_games=2, b_games=1, tied_games=0
        )
        now = board(teams, earlier + [entered.get(m.id, m) for m in current])
        assert now.undoable is not None
        key, description = now.undoable
        assert key == f"match-{match.id}"
        assert description == f"round {rounds}, {now.describe_match(entered[match.id])}"


def test_undoable_same_time_takes_the_later_match() -> None:
    """Two results entered at the same instant: the later match (by id) is the one taken back."""
    teams = make_teams(4)
    at = T0 + dt.timedelta(minutes=1)
    matches = [
        dataclasses.replace(result(1, 1, 10, 20, 1, 0), entered_at=at),
        dataclasses.replace(result(2, 1, 30, 40, 1, 0), entered_at=at),
    ]
    assert board(teams, matches).undoable == ("match-2", "round 1, Team 3 1–0 Team 4: Team 3 wins")


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=7),
    seed=st.integers(min_value=0, max_value=2**62),
    rng=st.randoms(use_true_random=False),
)
def test_a_whole_tournament(n: int, seed: int, rng: random.Random) -> None:
    """K4, P-K1, P-K3 from the end of round 8 to the champion:

    - who qualifies is :func:`finalists`' answer; playoff games are Border-Up between teams tied
      for a place, and they go on until the finalists are known;
    - the championship is the four games in order then Border-Up tie-breakers, between the
      finalists, side A first; a champion exists only once the games settle it, and then no
      game is due and it is one of the finalists; the score counts every championship game;
    - the result that may be undone is always the last game entered: the last championship
      game, or the last playoff game before the first; a finished tournament has none.
    """
    teams = make_teams(n)
    matches = play_rounds(teams, rng, ROUNDS, seed)
    boards, games = finish(teams, matches, rng, seed)
    qualification = boards[0].qualification
    assert qualification == finalists([t.id for t in teams], boards[0].outcomes())
    playoffs = [g for g in games if g.stage == GameStage.PLAYOFF]
    championship = [g for g in games if g.stage == GameStage.CHAMPIONSHIP]
    assert bool(playoffs) is qualification.needs_playoff
    assert all(g.game is BU and {g.a, g.b} <= set(qualification.tied) for g in playoffs)

    final = boards[-1]
    assert final.due is None and final.state.stage == Stage.FINISHED
    assert final.finals is not None and final.champion_id in final.finals
    assert set(qualification.advanced) <= set(final.finals)
    assert sum(final.score) == len(championship)
    assert [g.number for g in championship] == list(range(1, len(championship) + 1))
    assert all((g.a, g.b) == final.finals for g in championship)
    assert final.undoable is None

    for now in boards:
        stage = now.state.stage
        played = now.playoff_games + now.championship_games
        if stage == Stage.PLAYOFFS:
            assert now.finals is None and now.champion_id is None
            assert isinstance(now.due, DueGame) and now.due.stage == GameStage.PLAYOFF
            assert now.due.title == f"Playoff game {len(now.playoff_games) + 1}"
        if stage == Stage.CHAMPIONSHIP:
            assert now.champion_id is None
            assert championship_winner(now.championship_results) is None
            assert now.due is not None and now.due.stage == GameStage.CHAMPIONSHIP
            assert (now.due.a, now.due.b) == now.finals
            assert now.due.title == game_title(len(now.championship_games) + 1)
            if now.due.number > CHAMPIONSHIP_GAMES:
                assert now.due.game is BU
        if stage in (Stage.PLAYOFFS, Stage.CHAMPIONSHIP) and played:
            last = now.championship_games[-1] if now.championship_games else now.playoff_games[-1]
            assert now.undoable == (f"{last.stage}-{last.number}", now.describe_game(last))
        if stage in (Stage.PLAYOFFS, Stage.CHAMPIONSHIP) and not played:
            assert now.undoable is None


def test_three_teams_tied_for_one_place() -> None:
    """K4, P-K1: wins 2, 0, 0, 0 after round 8 (results built directly): the three level teams
    play off for the second place and the winner of the first game meets the third team; the
    finals then have the team through outright on side A."""
    teams = make_teams(4)
    matches = [
        result(1, 1, 10, 20, 2, 0),
        result(2, 1, 30, 40, 1, 1),
        result(3, 2, 10, 30, 2, 0),
        result(4, 2, 20, 40, 1, 1),
    ]
    matches += [
        result(10 + i, number, a, b, 1, 1)
        for i, (number, a, b) in enumerate(
            [(r, a, b) for r in range(3, ROUNDS + 1) for a, b in ((10, 20), (30, 40))]
        )
    ]
    rounds_over = board(teams, matches, stage=Stage.PLAYOFFS, number=ROUNDS)
    assert rounds_over.qualification is not None
    assert rounds_over.qualification.advanced == (10,)
    assert set(rounds_over.qualification.tied) == {20, 30, 40}
    due = rounds_over.due
    assert due is not None and (due.number, due.game, due.stage) == (1, BU, GameStage.PLAYOFF)
    first = StageGame(GameStage.PLAYOFF, 1, BU, due.a, due.b, due.a)
    second_board = board(teams, matches, [first], stage=Stage.PLAYOFFS, number=ROUNDS)
    second = second_board.due
    assert second is not None and due.a in (second.a, second.b)
    assert second_board.finals is None
    third = ({20, 30, 40} - {due.a, due.b}).pop()
    assert third in (second.a, second.b)
    done = [first, StageGame(GameStage.PLAYOFF, 2, BU, second.a, second.b, third)]
    finals_board = board(teams, matches, done, stage=Stage.CHAMPIONSHIP, number=ROUNDS)
    assert finals_board.finals == (10, third)
    assert finals_board.due is not None and finals_board.due.title == "Game 1 of 4"
    assert finals_board.score == (0, 0, 0) and finals_board.champion_id is None


def test_championship_score_and_champion() -> None:
    """K4: three games won of the four settle it; the score counts wins of each side and ties."""
    teams = make_teams(2)
    matches = [result(i, i, 10, 20, 2, 1) for i in range(1, ROUNDS + 1)]
    order = [ComboGame.BORDER_UP, ComboGame.STATE_IQ, ComboGame.DASHING_STATES]
    games = [StageGame(GameStage.CHAMPIONSHIP, 1, order[0], 10, 20, None)]
    games += [
        StageGame(GameStage.CHAMPIONSHIP, i + 1, g, 10, 20, 20) for i, g in enumerate(order[1:], 1)
    ]
    now = board(teams, matches, games[:2], stage=Stage.CHAMPIONSHIP, number=ROUNDS)
    assert now.finals == (10, 20) and now.score == (0, 1, 1) and now.champion_id is None
    assert now.due is not None and now.due.game is ComboGame.DASHING_STATES
    over = board(teams, matches, games, stage=Stage.CHAMPIONSHIP, number=ROUNDS)
    assert over.score == (0, 2, 1) and over.champion_id == 20 and over.due is None
    assert over.undoable is not None and over.undoable[0] == "championship-3"
