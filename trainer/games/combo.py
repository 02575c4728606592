"""A Combo 1 match: which game comes next, who starts, and who won (R2, K1, K2, K4).

Pure rules, no clock and no storage: the web layer keeps the list of
:class:`GameResult` of a match, asks :func:`next_game` what to play,
:func:`first_player` who starts, and :func:`match_winner` (or
:func:`championship_winner`) who won. It maps the student (or one team of a tournament
pairing) to :attr:`Side.A` and the computer (or the other team) to :attr:`Side.B`.

Rulings decided here (the project's own, for ``docs/RULINGS.md``):

- P-K2: "the team that just won Border-Up" (State IQ) and "the team that just won
  Dashing States" (Play the Ranks) mean the winner of the game played immediately
  before in the same match, in any format (so also in an afternoon round whose two
  picks are Border-Up and State IQ). When that game was tied, was another game, or there
  was none (the first game of a match), a fresh statehood draw decides (R2).
- P-K3: a championship tie-breaker (Border-Up) that is itself tied is replayed until one
  side wins it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from trainer.cards import StateCard
from trainer.modes import MODES, Kind, Mode


class ComboGame(str, Enum):
    """The four Level 1 games of Combo 1, by slug."""

    BORDER_UP = "border-up"
    STATE_IQ = "state-iq"
    DASHING_STATES = "dashing-states"
    PLAY_THE_RANKS = "play-the-ranks"

    @property
    def label(self) -> str:
        """The game's name as the rule text writes it."""
        return _LABELS[self]


_LABELS = {
    ComboGame.BORDER_UP: "Border-Up",
    ComboGame.STATE_IQ: "State IQ",
    ComboGame.DASHING_STATES: "Dashing States",
    ComboGame.PLAY_THE_RANKS: "Play the Ranks",
}

#: Games 1-4, the order of a morning round and of a championship match (K2, K4).
MORNING_ORDER = (
    ComboGame.BORDER_UP,
    ComboGame.STATE_IQ,
    ComboGame.DASHING_STATES,
    ComboGame.PLAY_THE_RANKS,
)

#: The game that decides who starts a game, where the rule text names one (R2).
STARTER_FROM = {
    ComboGame.STATE_IQ: ComboGame.BORDER_UP,
    ComboGame.PLAY_THE_RANKS: ComboGame.DASHING_STATES,
}


class MatchFormat(str, Enum):
    """The kinds of match: a morning round, an afternoon round, the championship."""

    MORNING = "morning"
    AFTERNOON = "afternoon"
    CHAMPIONSHIP = "championship"


#: How long a round lasts (K2). The championship has no clock.
ROUND_SECONDS = {MatchFormat.MORNING: 1200, MatchFormat.AFTERNOON: 720}


class Side(str, Enum):
    """The two sides of a match."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.B if self is Side.A else Side.A


@dataclass(frozen=True)
class GameResult:
    """One game of a match.

    Attributes:
        game: which game was played.
        winner: the side that won it, or None for a tie.
        finished_at: seconds from the start of the round to the end of the game, or None
            when the match is not timed (the championship).
    """

    game: ComboGame
    winner: Side | None
    finished_at: float | None = None


def statehood_draw(
    deck: Iterable[StateCard], rng: random.Random
) -> tuple[StateCard, StateCard, Side]:
    """Each side draws a different card; the better (lower) statehood rank wins (R2).

    Used for the afternoon round's first pick (K2) and whenever :func:`needs_draw` says
    so. The draw is public and the cards go back into the deck (P-R2). Cards are drawn
    from the deck in name order, as :func:`trainer.quiz.state_iq.first_guesser_by_draw`
    does, so a seed draws the same cards in both.

    Args:
        deck: the state cards (a :class:`~trainer.cards.Deck` will do).
        rng: the seeded generator (G9).

    Returns:
        Side A's card, side B's card, and the side that won the draw.
    """
    pool = sorted(deck, key=lambda card: card.name)
    a, b = rng.sample(pool, 2)
    return a, b, Side.A if a.statehood_rank < b.statehood_rank else Side.B


def _scheduled(
    fmt: MatchFormat, index: int, picks: tuple[ComboGame, ComboGame] | None
) -> ComboGame:
    """Game ``index`` (0-based) of a match in this format, even if the match is over."""
    if fmt is MatchFormat.MORNING:
        return MORNING_ORDER[index % len(MORNING_ORDER)]
    if fmt is MatchFormat.AFTERNOON:
        if picks is None:
            raise ValueError("an afternoon match needs the two picked games")
        if len(picks) != 2:
            raise ValueError("an afternoon match needs two picked games")
        first, second = ComboGame(picks[0]), ComboGame(picks[1])
        if first is second:
            raise ValueError(f"the second pick must not be {first.label} again (K2)")
        return second if index % 2 else first
    if index < len(MORNING_ORDER):
        return MORNING_ORDER[index]
    return ComboGame.BORDER_UP


def _check_order(
    fmt: MatchFormat,
    played: Sequence[GameResult],
    picks: tuple[ComboGame, ComboGame] | None,
) -> None:
    for index, result in enumerate(played):
        due = _scheduled(fmt, index, picks)
        if result.game is not due:
            raise ValueError(f"game {index + 1} should be {due.label}, not {result.game.label}")


def next_game(
    fmt: MatchFormat,
    played: Sequence[GameResult],
    picks: tuple[ComboGame, ComboGame] | None = None,
) -> ComboGame | None:
    """The game to play next in a match (K2, K4).

    Morning: games 1-4 in order, again and again while the round lasts. Afternoon: the
    two picks in the order chosen (the draw winner's first), alternating while the round
    lasts. Championship: the four games once, stopping early once settled; if level
    after four, Border-Up tie-breakers until one has a winner (P-K3). The clock is the
    caller's: this never says a timed round is over.

    Args:
        fmt: the kind of match.
        played: the games played so far in this match, in order, including a game cut
            off by the bell.
        picks: afternoon only: the draw winner's pick, then the other side's.

    Returns:
        The next game, or None when a championship match is settled.

    Raises:
        ValueError: an afternoon match without two different picks, or ``played`` not in
            the order the format sets.
    """
    _check_order(fmt, played, picks)
    if fmt is MatchFormat.CHAMPIONSHIP and championship_over(played):
        return None
    return _scheduled(fmt, len(played), picks)


def computer_pick(seed: int, taken: tuple[ComboGame, ...]) -> ComboGame:
    """The computer team's afternoon pick: any game not already picked, drawn from the match's
    seed (the match page and the simulator both pick with this)."""
    choices = [g for g in ComboGame if g not in taken]
    return random.Random(f"combo-pick:{seed}:{len(taken)}").choice(choices)


def needs_draw(game: ComboGame, played: Sequence[GameResult]) -> bool:
    """Whether the statehood draw decides who starts ``game`` (R2, P-K2).

    True for State IQ and Play the Ranks, unless the game just before was a Border-Up
    (for State IQ) or Dashing States (for Play the Ranks) that one side won. Races never
    need a draw.
    """
    source = STARTER_FROM.get(game)
    if source is None:
        return False
    if not played:
        return True
    last = played[-1]
    return last.game is not source or last.winner is None


def first_player(
    game: ComboGame, played: Sequence[GameResult], draw_winner: Side | None = None
) -> Side:
    """Who guesses first in State IQ, or leads Play the Ranks' first trick (R2, P-K2).

    The winner of the game just before when that was Border-Up (for State IQ) or Dashing
    States (for Play the Ranks); otherwise the winner of a statehood draw. Border-Up and
    Dashing States are races in which both sides start at once, so who "starts" them
    does not matter: they return ``draw_winner``, or :attr:`Side.A` without one.

    Args:
        game: the game about to be played.
        played: the games already played in this match, in order.
        draw_winner: the winner of a fresh :func:`statehood_draw`, needed when
            :func:`needs_draw` is True.

    Raises:
        ValueError: the draw decides but no ``draw_winner`` was given.
    """
    if game not in STARTER_FROM:
        return draw_winner if draw_winner is not None else Side.A
    if not needs_draw(game, played):
        winner = played[-1].winner
        assert winner is not None
        return winner
    if draw_winner is None:
        raise ValueError(f"the statehood draw decides who starts {game.label} here (R2)")
    return draw_winner


def counted(results: Sequence[GameResult], bell_seconds: float | None) -> list[GameResult]:
    """The games that count in a round: those finished by the bell (K2).

    Args:
        results: the games of the match.
        bell_seconds: the round's length (:data:`ROUND_SECONDS`), or None for no clock.

    Returns:
        The games with ``finished_at`` at or before the bell, and the untimed ones.
    """
    if bell_seconds is None:
        return list(results)
    return [r for r in results if r.finished_at is None or r.finished_at <= bell_seconds]


def score(results: Iterable[GameResult]) -> dict[Side, int]:
    """The number of games each side won (K1); see :func:`ties` for the tied games."""
    wins = {Side.A: 0, Side.B: 0}
    for result in results:
        if result.winner is not None:
            wins[result.winner] += 1
    return wins


def ties(results: Iterable[GameResult]) -> int:
    """The number of tied games (K1)."""
    return sum(1 for result in results if result.winner is None)


def match_winner(results: Iterable[GameResult]) -> Side | None:
    """The side that won more games, or None for a tied match (K1).

    For a timed round pass the :func:`counted` games.
    """
    wins = score(results)
    if wins[Side.A] == wins[Side.B]:
        return None
    return Side.A if wins[Side.A] > wins[Side.B] else Side.B


def championship_winner(results: Sequence[GameResult]) -> Side | None:
    """The champion side once the championship match is settled, else None (K4, P-K3).

    Settled after three games when one side has won all three, or two with the third
    tied; after four games when one side has won more; otherwise by the first Border-Up
    tie-breaker that is not a tie.

    Args:
        results: the championship's games so far, in order.

    Raises:
        ValueError: the games are not in championship order, or a game was played after
            the match was settled.
    """
    winner: Side | None = None
    for count in range(1, len(results) + 1):
        if winner is not None:
            raise ValueError(f"game {count} was played after the championship was settled")
        due = _scheduled(MatchFormat.CHAMPIONSHIP, count - 1, None)
        if results[count - 1].game is not due:
            played = results[count - 1].game.label
            raise ValueError(f"game {count} should be {due.label}, not {played}")
        winner = _settled(results[:count])
    return winner


def _settled(results: Sequence[GameResult]) -> Side | None:
    """The champion after exactly these games, or None (K4, P-K3)."""
    count = len(results)
    if count < 3:
        return None
    if count == 3:
        wins = score(results)
        for side in Side:
            if wins[side] == 3 or (wins[side] == 2 and wins[side.other] == 0):
                return side
        return None
    if count == 4:
        return match_winner(results)
    return results[-1].winner if match_winner(results[:4]) is None else None


def championship_over(results: Sequence[GameResult]) -> bool:
    """Whether the championship match is settled (K4)."""
    return championship_winner(results) is not None


def describe(result: GameResult, names: Mapping[Side, str]) -> str:
    """One sentence for a game's result.

    E.g. "Border-Up: Team Red won." or "State IQ: a tie.".
    """
    if result.winner is None:
        return f"{result.game.label}: a tie."
    return f"{result.game.label}: {names[result.winner]} won."


MODES.register(
    Mode(
        "combo",
        "Combo 1",
        "",
        frozenset(),
        False,
        "match",
        Kind.COMBO,
        timed=True,
        assignable=False,
        order=90,
    )
)
