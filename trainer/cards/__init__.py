"""The GeoPlunge deck: state cards, Power cards and Map cards, loaded and checked from ``data/``."""

from .deck import DATA_DIR, Deck, DeckError, MapGeometry, load_deck
from .model import (
    CENSUS_DIVISIONS,
    ZONE_COLOURS,
    Category,
    MapCard,
    PowerCard,
    Region,
    StateCard,
    StateShape,
    Zone,
)

__all__ = [
    "CENSUS_DIVISIONS",
    "DATA_DIR",
    "ZONE_COLOURS",
    "Category",
    "Deck",
    "DeckError",
    "MapCard",
    "MapGeometry",
    "PowerCard",
    "Region",
    "StateCard",
    "StateShape",
    "Zone",
    "load_deck",
]
