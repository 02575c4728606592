"""A round's match as scored in the app: the game due, who starts it, and the games that count.

The rules are :mod:`trainer.games.combo`'s: the order of games (K2), who guesses or leads first
(P-K2, with a statehood draw where R2 applies), the games finished by the bell (K2) and who won
(K1). This module only reads the stored rows: the match, its recorded games (``TournamentGame``
rows of stage "match") and the tournament's round clock. Every draw is seeded from the
tournament's seed, the match and the game, so a refresh or a second device shows the same cards.

The time of a game is when its result was recorded: it counts when recorded at or before the
bell, the teacher's round clock plus 20 (morning) or 12 (afternoon) minutes. If the teacher never
started the clock, every game recorded counts (P-K6).

A game recorded by a student of one team stands only once a student of the other team (or the
teacher) has confirmed it; until then it is the match's *pending* game, and nothing else can be
recorded. Its time stays the time it was entered: a confirmation after the bell does not make a
game late, and one before it does not make a late game count (P-K6).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trainer.cards import StateCard
from trainer.facts.answers import ordinal
from trainer.games.combo import (
    ROUND_SECONDS,
    STARTER_FROM,
    ComboGame,
    GameResult,
    MatchFormat,
    Side,
    counted,
    first_player,
    match_winner,
    needs_draw,
    next_game,
    score,
    ties,
)
from trainer.games.combo import statehood_draw as draw_cards
from trainer.games.tournament import round_format

from .. import get_deck
from ..models import Tournament, TournamentGame, TournamentMatch

#: The most games one match records: as many as the teacher's form takes (teach.forms.MAX_MATCH_GAMES).
MAX_GAMES = 20

#: What the first player of a game does (the game before that decides it: combo.STARTER_FROM, P-K2).
_VERB = {ComboGame.STATE_IQ: "guesses first", ComboGame.PLAY_THE_RANKS: "leads the first trick"}


@dataclass(frozen=True)
class Draw:
    """A statehood draw: each team's card and the team whose card joined the Union first (R2)."""

    a: StateCard
    b: StateCard
    winner: Side

    def card(self, side: Side) -> StateCard:
        return self.a if side is Side.A else self.b

    def describe(self, names: Mapping[Side, str]) -> str:
        """ "Team 1 drew Ohio (17th state), Team 2 drew Texas (28th state)"."""
        return ", ".join(
            f"{names[side]} drew {self.card(side).name} ({ordinal(self.card(side).statehood_rank)} state)"
            for side in Side
        )

    def stored(self) -> dict[str, str]:
        """As ``TournamentMatch.draw`` keeps it."""
        return {"a": self.a.postal, "b": self.b.postal, "winner": self.winner.value}


def _draw(key: str) -> Draw:
    a, b, winner = draw_cards(get_deck(), random.Random(key))
    return Draw(a, b, winner)


def pick_draw(tournament: Tournament, match: TournamentMatch) -> Draw:
    """The afternoon round's draw: the winner's team picks the first game (K2). Seeded by the match."""
    return _draw(f"{tournament.seed}/match/{match.id}/picks")


def stored_draw(match: TournamentMatch) -> Draw | None:
    """The afternoon draw made for the match, if it was made."""
    if not match.draw:
        return None
    deck = get_deck()
    return Draw(deck[match.draw["a"]], deck[match.draw["b"]], Side(match.draw["winner"]))


def game_draw(tournament: Tournament, match: TournamentMatch, number: int) -> Draw:
    """The statehood draw for who starts game ``number`` of the match (R2). Seeded by the game."""
    return _draw(f"{tournament.seed}/match/{match.id}/game/{number}")


@dataclass(frozen=True)
class Start:
    """Who starts a game and why (P-K2, R2)."""

    game: ComboGame
    #: The team that guesses first (State IQ) or leads the first trick (Play the Ranks); None for a
    #: race (Border-Up, Dashing States), where both teams start together.
    first: Side | None
    #: The statehood draw that decided, when the game before did not (R2).
    draw: Draw | None
    #: The game just before in the match, if any.
    before: GameResult | None

    def sentence(self, names: Mapping[Side, str]) -> str:
        game = self.game
        if self.first is None:
            return f"{game.label} is a race: both teams start together."
        verb, source = _VERB[game], STARTER_FROM[game]
        who = names[self.first]
        if self.draw is None:
            return f"{who} won {source.label} just before, so {who} {verb}."
        if self.before is None:
            why = "It is the first game of the match"
        elif self.before.game is source:
            why = f"{source.label} just before was a tie"
        else:
            why = f"The game just before was {self.before.game.label}, not {source.label}"
        return f"{why}, so a statehood draw decides: {self.draw.describe(names)}. {who} {verb}."


def start_of(
    tournament: Tournament, match: TournamentMatch, game: ComboGame, played: Sequence[GameResult]
) -> Start:
    """Who starts ``game``, the next game after ``played`` (P-K2, R2)."""
    before = played[-1] if played else None
    if game not in STARTER_FROM:
        return Start(game, None, None, before)
    if needs_draw(game, played):
        draw = game_draw(tournament, match, len(played) + 1)
        return Start(game, first_player(game, played, draw.winner), draw, before)
    return Start(game, first_player(game, played), None, before)


@dataclass(frozen=True)
class Recorded:
    """A game of the match as recorded in the app, and who entered and confirmed it (P-K6)."""

    id: int
    number: int
    result: GameResult
    entered_at: dt.datetime
    start: Start
    #: Whether it counts (recorded by the bell, K2); None once the round is over (its clock is gone).
    counts: bool | None
    #: Who entered it, and for which team (None: the teacher).
    entered_by_id: int | None
    entered_side: Side | None
    #: Confirmed by the other team or the teacher, or entered by the teacher: the result stands.
    stands: bool
    confirmed_by_id: int | None
    #: Disputed by the other team (and not confirmed since).
    disputed_by_id: int | None
    disputed: bool

    @property
    def token(self) -> str:
        """Names this entry of the game, for a form that answers it: its number and the microsecond
        it was entered, so an answer from a page older than a take-back and a new entry (which
        SQLite may give the same row id) names nothing."""
        return f"{self.number}.{round(self.entered_at.timestamp() * 1_000_000)}"

    @property
    def confirmer(self) -> Side | None:
        """The team whose student confirms it (None: either team, for a game of unknown side)."""
        return None if self.entered_side is None else self.entered_side.other

    @property
    def clock(self) -> str:
        """When in the round it was recorded, as m:ss ("" without a clock)."""
        seconds = self.result.finished_at
        if seconds is None:
            return ""
        if seconds < 0:
            return "before the clock"
        whole = int(seconds)
        return f"{whole // 60}:{whole % 60:02d}"


@dataclass(frozen=True)
class Upcoming:
    """The game to record next."""

    number: int
    game: ComboGame
    start: Start


class MatchPlay:
    """A round's match and the games recorded for it in the app, as they stand at ``now``."""

    def __init__(
        self,
        tournament: Tournament,
        match: TournamentMatch,
        games: Sequence[TournamentGame],
        now: dt.datetime,
    ) -> None:
        self.tournament, self.match, self.now = tournament, match, now
        self.format: MatchFormat = round_format(match.round)
        self.length = ROUND_SECONDS[self.format]
        self.minutes = self.length // 60
        #: The match's round is the one under way: games may be recorded and the clock is its own.
        self.open_round = tournament.stage == "rounds" and tournament.round == match.round
        self.clock_started_at = tournament.clock_started_at if self.open_round else None
        started = self.clock_started_at
        self.bell = None if started is None else started + dt.timedelta(seconds=self.length)
        self.draw = stored_draw(match)
        picks = [ComboGame(slug) for slug in match.picks or []]
        self.picked: list[ComboGame] = picks
        self.picks: tuple[ComboGame, ComboGame] | None = (
            (picks[0], picks[1]) if len(picks) == 2 else None
        )

        bell_seconds = None if started is None else float(self.length)
        self.games: list[Recorded] = []
        results: list[GameResult] = []
        for row in sorted(games, key=lambda g: g.number):
            winner = (
                None
                if row.winner_id is None
                else (Side.A if row.winner_id == match.a_team_id else Side.B)
            )
            # The time of entry, never of the confirmation, places the game against the bell (P-K6).
            seconds = None if started is None else (row.entered_at - started).total_seconds()
            result = GameResult(ComboGame(row.game), winner, seconds)
            counts = bool(counted([result], bell_seconds)) if self.open_round else None
            start = start_of(tournament, match, result.game, results)
            stands = row.confirmed_at is not None
            self.games.append(
                Recorded(
                    row.id,
                    row.number,
                    result,
                    row.entered_at,
                    start,
                    counts,
                    row.entered_by_id,
                    self.side_of(row.entered_team_id),
                    stands,
                    row.confirmed_by_id,
                    row.disputed_by_id,
                    not stands and row.disputed_at is not None,
                )
            )
            results.append(result)
        self.results = results
        #: The game waiting for the other team's (or the teacher's) word: at most one, the last,
        #: since nothing is recorded while one waits (P-K6).
        self.pending: Recorded | None = next((g for g in self.games if not g.stands), None)
        #: The team that asked to finish the match (P-K6), if one did and it is not answered yet.
        self.finish_asked: Side | None = None
        if match.finish_asked_at is not None and match.entered_at is None:
            self.finish_asked = self.side_of(match.finish_asked_team_id)
        #: The games that decide the match (K1, K2): those that stand and were recorded by the bell.
        self.counted = [g.result for g in self.games if g.stands and g.counts is not False]
        self.wins = score(self.counted)
        self.tied = ties(self.counted)
        self.winner = match_winner(self.counted)
        self.late = sum(1 for g in self.games if g.counts is False)

    def side_of(self, team_id: int | None) -> Side | None:
        """Team A's or team B's side, or None (no team: the teacher)."""
        if team_id is None:
            return None
        if team_id == self.match.a_team_id:
            return Side.A
        return Side.B if team_id == self.match.b_team_id else None

    @property
    def waiting(self) -> int:
        """Games recorded that do not stand yet (0 or 1)."""
        return sum(1 for g in self.games if not g.stands)

    @property
    def finish_waits(self) -> bool:
        """A team asked to finish the match and the other team (or the teacher) has not answered."""
        return self.match.finish_asked_at is not None and not self.entered

    @property
    def needs_teacher(self) -> bool:
        """Something waits for a confirmation: the teacher's round page lists the match (P-K6)."""
        return (
            self.open_round and not self.entered and (self.pending is not None or self.finish_waits)
        )

    @property
    def a_wins(self) -> int:
        return self.wins[Side.A]

    @property
    def b_wins(self) -> int:
        return self.wins[Side.B]

    @property
    def entered(self) -> bool:
        return self.match.entered_at is not None

    @property
    def afternoon(self) -> bool:
        return self.format is MatchFormat.AFTERNOON

    @property
    def seconds_left(self) -> float | None:
        """Seconds to the bell (0 once it has rung), or None before the clock starts."""
        if self.bell is None:
            return None
        return max(0.0, (self.bell - self.now).total_seconds())

    @property
    def bell_rung(self) -> bool:
        return self.bell is not None and self.now >= self.bell

    @property
    def picks_due(self) -> bool:
        """An afternoon match whose games are not both picked yet (K2)."""
        return self.afternoon and self.picks is None

    @property
    def can_record(self) -> bool:
        """A game may be recorded: the round is open, the match has no result, the picks are made,
        no game waits for confirmation and nobody asked to finish (P-K6)."""
        return (
            self.open_round
            and not self.entered
            and not self.picks_due
            and len(self.games) < MAX_GAMES
            and self.pending is None
            and not self.finish_waits
        )

    @property
    def upcoming(self) -> Upcoming | None:
        """The game due next in the format's order (K2), when a game may be recorded."""
        if not self.can_record:
            return None
        game = next_game(self.format, self.results, self.picks)
        assert game is not None  # only a championship ends by itself
        return Upcoming(
            len(self.games) + 1, game, start_of(self.tournament, self.match, game, self.results)
        )

    def finish_columns(self) -> dict[str, object]:
        """The match result from the counted games (K1), as the ``TournamentMatch`` columns."""
        match = self.match
        winner = (
            None
            if self.winner is None
            else (match.a_team_id if self.winner is Side.A else match.b_team_id)
        )
        return {
            "a_games": self.wins[Side.A],
            "b_games": self.wins[Side.B],
            "tied_games": self.tied,
            "winner_id": winner,
        }
