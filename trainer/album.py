"""The card album (#21): each state's GeoPlunge card fills in as the student learns its facts.

A card's level comes from the student's memory of the state's facts, one per :class:`Facet`
(map, capital, postal code, borders, the three rankings and the time zone), as ruling P-L1 says:

* **not met**: no fact of the state answered yet;
* **bronze**: met (at least one fact answered), fewer than most of its facts known;
* **silver**: most of its facts known (more than half: 5 of 8);
* **gold**: every fact known, and each one for the long run (its memory as stable as the
  dashboard's "mastered", :data:`trainer.dashboard_data.MASTERED_STABILITY_DAYS`).

A fact is *known* when its predicted recall now (the app's one forgetting curve: ``srs.recall``,
in SQL ``dashboards.recall_expr``) is at or above the student's goal (their desired retention),
and it has been learned (stability at least :data:`trainer.srs.LEARNED_STABILITY_DAYS`: a fact
answered wrong today is predicted 100% recalled today, but it is not known).

Pure Python: the web layer reads the memories (one SQL query) and draws the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from trainer.cards import Deck
from trainer.dashboard_data import MASTERED_STABILITY_DAYS
from trainer.facts import Facet
from trainer.srs import LEARNED_STABILITY_DAYS

__all__ = [
    "Album",
    "AlbumCard",
    "CardLevel",
    "FactMemory",
    "album",
    "card_level",
    "is_known",
    "is_lasting",
]


class CardLevel(Enum):
    """How far a state's card is filled in, lowest first."""

    NOT_MET = 0
    BRONZE = 1
    SILVER = 2
    GOLD = 3

    @property
    def slug(self) -> str:
        """The level in CSS classes (``album-level--gold``)."""
        return self.name.lower().replace("_", "-")

    @property
    def label(self) -> str:
        """The level in words, as the badge and the legend say it."""
        return _LABELS[self]

    @property
    def meaning(self) -> str:
        """What the level means, for the legend."""
        return _MEANINGS[self]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CardLevel):
            return NotImplemented
        return self.value < other.value

    def __le__(self, other: object) -> bool:
        if not isinstance(other, CardLevel):
            return NotImplemented
        return self.value <= other.value


_LABELS = {
    CardLevel.NOT_MET: "Not met yet",
    CardLevel.BRONZE: "Bronze",
    CardLevel.SILVER: "Silver",
    CardLevel.GOLD: "Gold",
}
_MEANINGS = {
    CardLevel.GOLD: "you know every fact, for the long run",
    CardLevel.SILVER: "you know most of its facts",
    CardLevel.BRONZE: "you have met it and are learning it",
    CardLevel.NOT_MET: "no fact answered yet",
}


@dataclass(frozen=True)
class FactMemory:
    """What the student's memory holds of one fact they have answered: its predicted recall now
    (0 to 1) and its stability in days (None: never scheduled)."""

    recall: float
    stability: float | None


def is_known(memory: FactMemory | None, goal: float) -> bool:
    """True when the fact is learned and its predicted recall is at or above ``goal`` (P-L1)."""
    if memory is None or memory.stability is None:
        return False
    return memory.stability >= LEARNED_STABILITY_DAYS and memory.recall >= goal


def is_lasting(memory: FactMemory | None, goal: float) -> bool:
    """True when the fact is known and its memory is as stable as the dashboard's "mastered"."""
    return (
        is_known(memory, goal)
        and memory is not None
        and (memory.stability or 0.0) >= MASTERED_STABILITY_DAYS
    )


def card_level(memories: Mapping[Facet, FactMemory], goal: float) -> CardLevel:
    """The level of one state's card from the student's memories of its facts (ruling P-L1).

    Args:
        memories: the facts of the state the student has answered (a facet missing: not met).
        goal: the student's goal, the predicted recall a known fact is at (desired retention).
    """
    facets = list(Facet)
    if not any(facet in memories for facet in facets):
        return CardLevel.NOT_MET
    if all(is_lasting(memories.get(facet), goal) for facet in facets):
        return CardLevel.GOLD
    known = sum(is_known(memories.get(facet), goal) for facet in facets)
    if 2 * known > len(facets):
        return CardLevel.SILVER
    return CardLevel.BRONZE


@dataclass(frozen=True)
class AlbumCard:
    """One state's place in the album."""

    postal: str
    name: str
    level: CardLevel
    #: Facts of the state answered, and known (P-L1), of ``total``.
    met: int
    known: int
    total: int

    @property
    def facts_text(self) -> str:
        """The card's facts in words: "5 of 8 facts known"."""
        return f"{self.known} of {self.total} facts known"


@dataclass(frozen=True)
class Album:
    """The 50 cards, by state name."""

    cards: tuple[AlbumCard, ...]

    def count(self, level: CardLevel) -> int:
        """How many cards are at ``level``."""
        return sum(card.level is level for card in self.cards)

    @property
    def collected(self) -> int:
        """Cards met: any level but not met."""
        return sum(card.level is not CardLevel.NOT_MET for card in self.cards)

    @property
    def summary(self) -> str:
        """The counts in words: "12 of 50 cards: 3 gold, 4 silver, 5 bronze"."""
        levels = (CardLevel.GOLD, CardLevel.SILVER, CardLevel.BRONZE)
        parts = ", ".join(f"{self.count(level)} {level.label.lower()}" for level in levels)
        noun = "card" if len(self.cards) == 1 else "cards"
        return f"{self.collected} of {len(self.cards)} {noun}: {parts}"


def album(deck: Deck, memories: Mapping[str, Mapping[Facet, FactMemory]], goal: float) -> Album:
    """Every card of ``deck`` (by name) at its level, from the student's memories by state."""
    cards = []
    total = len(Facet)
    for state in deck.sorted_by(None):
        mine = memories.get(state.postal, {})
        cards.append(
            AlbumCard(
                postal=state.postal,
                name=state.name,
                level=card_level(mine, goal),
                met=sum(facet in mine for facet in Facet),
                known=sum(is_known(mine.get(facet), goal) for facet in Facet),
                total=total,
            )
        )
    return Album(tuple(cards))
