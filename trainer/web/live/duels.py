"""The Level 1 games played between two classmates at a live table (issue 22): the races and duels.

A duel is not a card game of the registry: its table has two seats, no team, no computer and no
drill (L-R1), and its own start and page. Each duel's module registers itself here when it is
imported (the last lines of :mod:`.routes`), so the table's routes ask this registry, not the game's
name, what a table plays.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trainer.live import Seat

    from ..models import LiveTable

#: Deals each seat its own round and turns them over at the same instant: False when the table
#: changed meanwhile (the start is a conditional write on the table's version).
Start = Callable[["LiveTable", "tuple[Seat, ...]", int, dt.datetime], bool]
#: The page for one seat: its template and context, given the table page's common context.
Page = Callable[["LiveTable", "tuple[Seat, ...]", int, dict[str, Any]], tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Duel:
    """How a table of one Level 1 game starts and shows itself."""

    slug: str
    #: What the table's pages call the game ("Border-Up race").
    title: str
    #: How the game is played, said to a card game's request sent to it ("call GeoPlunge! with
    #: two groups").
    how: str
    start: Start
    page: Page


#: The duels by their table's game slug.
DUELS: dict[str, Duel] = {}


def register(duel: Duel) -> Duel:
    """Add ``duel`` to the registry (once per slug)."""
    if duel.slug in DUELS:
        raise ValueError(f"duel {duel.slug!r} is registered twice")
    DUELS[duel.slug] = duel
    return duel


def is_duel(game: str) -> bool:
    """True when a table of ``game`` is a duel between two students, not a card game."""
    return game in DUELS
