"""A Combo 1 class tournament as it stands: standings, rounds, playoffs and the championship (K1-K4).

Pure Python over plain records: the web layer copies what it stored (the teams, the rounds'
matches, the playoff and championship games, and the tournament's stage, round, seed and clock)
into :class:`Team`, :class:`RoundMatch`, :class:`StageGame` and :class:`TournamentState`, and a
:class:`TournamentBoard` built from them answers everything the teacher's pages ask: the
standings with their places, whether a round is complete, who qualified (K4, P-K1), the
finalists, the game due, the champion and the championship's score, what may be undone, the
sentences describing a match or a game, and the round clock (K2). The rules themselves are
:mod:`trainer.games.tournament`'s and :mod:`trainer.games.combo`'s; this module only puts the
stored results through them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from .combo import ROUND_SECONDS, ComboGame, GameResult, MatchFormat, Side, next_game
from .tournament import (
    ROUNDS,
    GameStage,
    MatchOutcome,
    PlayoffResult,
    Qualification,
    Stage,
    Standing,
    champion,
    championship_teams,
    finalists,
    next_playoff_game,
    round_format,
    standings,
)

#: The games of a championship before its Border-Up tie-breakers (K4).
CHAMPIONSHIP_GAMES = 4


# --- The records the board is built from ----------------------------------------------------------


@dataclass(frozen=True)
class Team:
    """A team of the tournament: its id, its number, its name and its members' usernames."""

    id: int
    number: int
    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class RoundMatch:
    """A round's match between teams ``a`` and ``b``, or a bye (``b`` None, a win from the start).

    ``entered_at`` is when its result was entered, None while it has none; ``winner`` is a team
    id, or None for a tied match (K1); the games won by each team and tied are None until entered.
    """

    id: int
    round: int
    a: int
    b: int | None
    winner: int | None = None
    entered_at: dt.datetime | None = None
    a_games: int | None = None
    b_games: int | None = None
    tied_games: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def entered(self) -> bool:
        return self.entered_at is not None


@dataclass(frozen=True)
class StageGame:
    """A single game of the playoffs (P-K1) or the championship (K4): its number in its stage,
    the game played, the two teams (side A first) and the winner, or None for a tie."""

    stage: GameStage
    number: int
    game: ComboGame
    a: int
    b: int
    winner: int | None


@dataclass(frozen=True)
class TournamentState:
    """Where the tournament is: its stage, the round under way (0 before round 1 is paired), the
    seed of its random choices (G9), and when the current round's clock started (K2)."""

    stage: Stage
    round: int
    seed: int
    clock_started_at: dt.datetime | None = None


# --- What the board answers -----------------------------------------------------------------------


@dataclass(frozen=True)
class DueGame:
    """The playoff or championship game to play next."""

    stage: GameStage
    number: int
    a: int
    b: int
    game: ComboGame
    title: str


@dataclass(frozen=True)
class StandingsRow:
    """A line of the standings: the place (equal wins share it) and the record."""

    rank: int
    team: Team
    standing: Standing


def game_title(number: int) -> str:
    """A championship game's place: "Game 2 of 4", then "Tie-breaker 1" (K4)."""
    if number <= CHAMPIONSHIP_GAMES:
        return f"Game {number} of {CHAMPIONSHIP_GAMES}"
    return f"Tie-breaker {number - CHAMPIONSHIP_GAMES}"


def round_minutes(number: int) -> int:
    """The length of round ``number``'s clock in minutes: 20 in the morning, 12 after (K2)."""
    return ROUND_SECONDS[round_format(number)] // 60


def is_morning(number: int) -> bool:
    """Whether round ``number`` is a morning round (rounds 1-4)."""
    return round_format(number) is MatchFormat.MORNING


def round_seconds_left(
    stage: Stage, number: int, clock_started_at: dt.datetime | None, now: dt.datetime
) -> float | None:
    """Seconds left on the round clock (may be 0 or less), or None before it starts (K2)."""
    if stage != Stage.ROUNDS or number == 0 or clock_started_at is None:
        return None
    length = ROUND_SECONDS[round_format(number)]
    return length - (now - clock_started_at).total_seconds()


def is_replayed(stage: GameStage, number: int) -> bool:
    """Whether a tie in this game is played again: a playoff game (P-K1) or a championship
    tie-breaker (P-K3)."""
    return stage == GameStage.PLAYOFF or number > CHAMPIONSHIP_GAMES


class TournamentBoard:
    """A tournament and everything stored about it, and what follows from it.

    Raises:
        ValueError: a team id twice, or a game of a round's match among the stage games (those
            belong to the match as scored in the app, P-K6).
    """

    def __init__(
        self,
        state: TournamentState,
        teams: Sequence[Team],
        matches: Sequence[RoundMatch] = (),
        games: Sequence[StageGame] = (),
    ):
        self.state = state
        self.teams = list(teams)
        self.team = {team.id: team for team in self.teams}
        if len(self.team) != len(self.teams):
            raise ValueError("a team id appears twice")
        self.matches = sorted(matches, key=lambda m: (m.round, m.id))
        if any(g.stage not in (GameStage.PLAYOFF, GameStage.CHAMPIONSHIP) for g in games):
            raise ValueError("only playoff and championship games belong on the board")
        ordered = sorted(games, key=lambda g: g.number)
        self.playoff_games = [g for g in ordered if g.stage == GameStage.PLAYOFF]
        self.championship_games = [g for g in ordered if g.stage == GameStage.CHAMPIONSHIP]

    # The teams.

    @property
    def team_ids(self) -> list[int]:
        return [team.id for team in self.teams]

    def name(self, team_id: int | None) -> str:
        return "" if team_id is None else self.team[team_id].name

    def names(self, team_ids: tuple[int, ...] | list[int]) -> str:
        """ "Team 1", "Team 1 and Team 2", "Team 1, Team 2 and Team 3"."""
        names = [self.name(t) for t in team_ids]
        return "".join(names) if len(names) < 2 else ", ".join(names[:-1]) + " and " + names[-1]

    def wins_of(self, team_id: int) -> int:
        return next(row.standing.wins for row in self.standings() if row.team.id == team_id)

    # The rounds.

    def round_matches(self, number: int) -> list[RoundMatch]:
        return [m for m in self.matches if m.round == number]

    @property
    def current(self) -> list[RoundMatch]:
        """The matches of the round under way (or last paired)."""
        return self.round_matches(self.state.round)

    def complete(self, number: int) -> bool:
        matches = self.round_matches(number)
        return bool(matches) and all(m.entered for m in matches)

    @property
    def missing(self) -> list[RoundMatch]:
        """The current round's matches still without a result."""
        return [m for m in self.current if not m.entered]

    @property
    def last_complete_round(self) -> int:
        number = self.state.round
        return number if self.complete(number) else number - 1

    @property
    def rounds_done(self) -> bool:
        return self.state.round == ROUNDS and self.complete(ROUNDS)

    def outcomes(self, through: int | None = None) -> list[MatchOutcome]:
        """The entered results (byes included) of rounds 1 to ``through`` (default: all)."""
        last = self.state.round if through is None else through
        return [
            MatchOutcome(m.round, m.a, m.b, m.a if m.b is None else m.winner)
            for m in self.matches
            if m.entered and m.round <= last
        ]

    def standings(self) -> list[StandingsRow]:
        """The standings after the last complete round: match wins first, byes counted (K3)."""
        table = standings(self.team_ids, self.outcomes(self.last_complete_round))
        rows, rank, wins = [], 0, None
        for place, standing in enumerate(table, start=1):
            if standing.wins != wins:
                rank, wins = place, standing.wins
            rows.append(StandingsRow(rank, self.team[standing.team], standing))
        return rows

    def describe_match(self, match: RoundMatch) -> str:
        """ "Team 1 3–1 Team 2: Team 1 wins", "... : no result yet", "Team 3 has a bye ..." (K1, K3)."""
        a, b = self.name(match.a), self.name(match.b)
        if match.b is None:
            return f"{a} has a bye (counts as a win)"
        if match.entered_at is None:
            return f"{a} vs {b}: no result yet"
        tied = f", {match.tied_games} tied" if match.tied_games else ""
        verdict = "a tied match" if match.winner is None else f"{self.name(match.winner)} wins"
        return f"{a} {match.a_games}–{match.b_games} {b}{tied}: {verdict}"

    def seconds_left(self, now: dt.datetime) -> float | None:
        """Seconds left on the current round's clock, or None before it starts (K2)."""
        return round_seconds_left(
            self.state.stage, self.state.round, self.state.clock_started_at, now
        )

    # The playoffs and the championship.

    @cached_property
    def qualification(self) -> Qualification | None:
        """Who is through and who plays off (K4), once every round's result is in."""
        return finalists(self.team_ids, self.outcomes()) if self.rounds_done else None

    @property
    def playoff_results(self) -> list[PlayoffResult]:
        return [(g.a, g.b, g.winner) for g in self.playoff_games]

    @cached_property
    def finals(self) -> tuple[int, int] | None:
        """The two finalists, side A first, once the playoffs (if any) are over (K4, P-K1)."""
        if not self.rounds_done:
            return None
        return championship_teams(
            self.team_ids, self.outcomes(), self.playoff_results, self.state.seed
        )

    @property
    def championship_results(self) -> list[GameResult]:
        finals = self.finals
        if finals is None:
            return []
        return [
            GameResult(
                g.game, None if g.winner is None else (Side.A if g.winner == finals[0] else Side.B)
            )
            for g in self.championship_games
        ]

    @property
    def champion_id(self) -> int | None:
        finals = self.finals
        return None if finals is None else champion(finals, self.championship_results)

    @property
    def score(self) -> tuple[int, int, int]:
        """Championship games won by side A, by side B, and tied."""
        finals = self.finals
        games = self.championship_games
        if finals is None:
            return 0, 0, 0
        return (
            sum(1 for g in games if g.winner == finals[0]),
            sum(1 for g in games if g.winner == finals[1]),
            sum(1 for g in games if g.winner is None),
        )

    @cached_property
    def due(self) -> DueGame | None:
        """The playoff or championship game to play next, if the stage has one."""
        stage = self.state.stage
        if stage == Stage.PLAYOFFS and self.rounds_done:
            teams = next_playoff_game(
                self.team_ids, self.outcomes(), self.playoff_results, self.state.seed
            )
            if teams is None:
                return None
            number = len(self.playoff_games) + 1
            return DueGame(
                GameStage.PLAYOFF,
                number,
                teams[0],
                teams[1],
                ComboGame.BORDER_UP,
                f"Playoff game {number}",
            )
        if stage == Stage.CHAMPIONSHIP and self.finals is not None:
            game = next_game(MatchFormat.CHAMPIONSHIP, self.championship_results)
            if game is None:
                return None
            number = len(self.championship_games) + 1
            return DueGame(
                GameStage.CHAMPIONSHIP,
                number,
                self.finals[0],
                self.finals[1],
                game,
                game_title(number),
            )
        return None

    def describe_game(self, game: StageGame) -> str:
        """ "Playoff game 1, Border-Up: Team 1 vs Team 2, Team 2 won", "Game 2 of 4, State IQ: ...,
        a tie", "Tie-breaker 1, Border-Up: ..., a tie (replayed)" (K4, P-K1, P-K3)."""
        label = game.game.label
        title = (
            f"Playoff game {game.number}"
            if game.stage == GameStage.PLAYOFF
            else game_title(game.number)
        )
        teams = f"{self.name(game.a)} vs {self.name(game.b)}"
        if game.winner is None:
            replayed = " (replayed)" if is_replayed(game.stage, game.number) else ""
            return f"{title}, {label}: {teams}, a tie{replayed}"
        return f"{title}, {label}: {teams}, {self.name(game.winner)} won"

    @property
    def undoable(self) -> tuple[str, str] | None:
        """The last result entered that may still be taken back: its key and what it was.

        In the rounds, the current round's match (not a bye) entered last; in the playoffs, the
        last playoff game; in the championship, its last game, or the last playoff game before
        the first. Earlier rounds and a finished tournament have nothing to undo.
        """
        stage = self.state.stage
        if stage == Stage.ROUNDS:
            entered = [m for m in self.current if m.entered_at is not None and m.b is not None]
            if not entered:
                return None
            last = max(entered, key=lambda m: (m.entered_at, m.id))
            return f"match-{last.id}", f"round {last.round}, {self.describe_match(last)}"
        if stage == Stage.CHAMPIONSHIP and self.championship_games:
            last_game = self.championship_games[-1]
        elif stage in (Stage.PLAYOFFS, Stage.CHAMPIONSHIP) and self.playoff_games:
            last_game = self.playoff_games[-1]
        else:
            return None
        return f"{last_game.stage}-{last_game.number}", self.describe_game(last_game)
