"""The GeoPlunge deck's cards as frozen dataclasses: state cards, Power cards and Map cards."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import Enum
from typing import Self


class _Named(str, Enum):
    """An enum of names that also have a lower-case slug, safe in URLs and CSS class names."""

    @property
    def slug(self) -> str:
        """A lower-case identifier, safe in URLs and CSS class names."""
        return self.value.lower()

    @classmethod
    def from_slug(cls, slug: str) -> Self | None:
        """The member whose slug is ``slug`` (case-insensitive), or None."""
        for member in cls:
            if member.slug == slug.strip().lower():
                return member
        return None


class Zone(_Named):
    """A card's Zone: its state's primary time zone (ruling G2)."""

    EASTERN = "Eastern"
    CENTRAL = "Central"
    MOUNTAIN = "Mountain"
    PACIFIC = "Pacific"
    ALASKA = "Alaska"
    HAWAII_ALEUTIAN = "Hawaii-Aleutian"

    @property
    def colour(self) -> str:
        """The name of the card-border colour for this zone (G2)."""
        return ZONE_COLOURS[self]


ZONE_COLOURS: dict[Zone, str] = {
    Zone.EASTERN: "red",
    Zone.CENTRAL: "green",
    Zone.MOUNTAIN: "blue",
    Zone.PACIFIC: "purple",
    Zone.ALASKA: "brown",
    Zone.HAWAII_ALEUTIAN: "orange",
}


class Region(_Named):
    """The four US Census regions: a way to study one part of the country at a time."""

    NORTHEAST = "Northeast"
    MIDWEST = "Midwest"
    SOUTH = "South"
    WEST = "West"


#: The Census Bureau's nine divisions and the region each belongs to.
CENSUS_DIVISIONS: dict[str, Region] = {
    "New England": Region.NORTHEAST,
    "Middle Atlantic": Region.NORTHEAST,
    "East North Central": Region.MIDWEST,
    "West North Central": Region.MIDWEST,
    "South Atlantic": Region.SOUTH,
    "East South Central": Region.SOUTH,
    "West South Central": Region.SOUTH,
    "Mountain": Region.WEST,
    "Pacific": Region.WEST,
}


class Category(_Named):
    """The three rankings on every GeoPlunge card (G1); also the GeoPower categories (G3)."""

    SIZE = "Size"
    STATEHOOD = "Statehood"
    POPULATION = "Population"


@dataclass(frozen=True)
class StateCard:
    """One GeoPlunge card: a state with its facts and three rankings (1 is best)."""

    name: str
    postal: str
    capital: str
    land_area_sq_mi: float
    size_rank: int
    statehood_date: dt.date
    statehood_rank: int
    population_2010: int
    population_rank: int
    zone: Zone
    secondary_zones: tuple[Zone, ...] = ()

    def rank(self, category: Category) -> int:
        """This card's ranking in ``category``."""
        return {
            Category.SIZE: self.size_rank,
            Category.STATEHOOD: self.statehood_rank,
            Category.POPULATION: self.population_rank,
        }[category]

    @property
    def ranks(self) -> dict[Category, int]:
        """All three rankings, keyed by category."""
        return {category: self.rank(category) for category in Category}

    @property
    def best_rank(self) -> int:
        """The card's best (lowest) ranking, as Geography War compares them (W1)."""
        return min(self.size_rank, self.statehood_rank, self.population_rank)

    @property
    def best_categories(self) -> tuple[Category, ...]:
        """The categories in which the card has its best ranking."""
        best = self.best_rank
        return tuple(c for c in Category if self.rank(c) == best)

    def beats_in_all(self, other: StateCard) -> bool:
        """True when this card is better than ``other`` in all three rankings (W3)."""
        return all(self.rank(c) < other.rank(c) for c in Category)


@dataclass(frozen=True)
class PowerCard:
    """A Power card: one GeoPower category and one State IQ clue code (G3)."""

    id: int
    category: Category
    clue_code: str


@dataclass(frozen=True)
class StateShape:
    """One state's outline on the shared US map (Albers USA with Alaska and Hawaii insets)."""

    path: str
    bbox: tuple[float, float, float, float]
    centroid: tuple[float, float]
    #: Land area on the map, in map units squared.
    area: float

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]


@dataclass(frozen=True)
class MapCard:
    """A Map card: the whole US map with exactly one state in red (G4)."""

    state: StateCard
    shape: StateShape
    #: True when the state is too small to see unaided, so the card adds a call-out.
    needs_callout: bool
