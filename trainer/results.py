"""The words a round or game stores as its result, shared by the web views and the simulator."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class Result(StrEnum):
    """A round's or game's stored result, from the student's side.

    A ``StrEnum``, so a member equals, formats and is stored as its word ("won", ...): the
    database values and the templates that compare with them stay as they were.
    """

    #: Border-Up: the cards are dealt but the race has not started yet.
    DEALT = "dealt"
    #: Not over yet.
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    #: A race or match that ended level (rulings D1, Q3, K1).
    TIED = "tied"
    #: A card game that ended level (its scores are equal).
    DRAWN = "drawn"
    #: A practice round (no computer team) that the student got right.
    RIGHT = "right"
    #: A practice round that the student got wrong.
    WRONG = "wrong"


def card_game_result(returns: Sequence[float]) -> Result:
    """The student's result from a finished card game's returns, the student in seat 0: drawn
    when every seat scored the same, won when no seat scored more, else lost. The web page and
    the simulator both settle a card game with this."""
    if len(set(returns)) == 1:
        return Result.DRAWN
    return Result.WON if returns[0] == max(returns) else Result.LOST
