"""The GeoPlunge deck: state cards, Power cards and Map cards, loaded and checked from ``data/``."""

from .deck import DATA_DIR, Deck, DeckError, MapGeometry, load_deck
from .model import ZONE_COLOURS, Category, MapCard, PowerCard, StateCard, StateShape, Zone

__all__ = [
    "DATA_DIR",
    "ZONE_COLOURS",
    "Category",
    "Deck",
    "DeckError",
    "MapCard",
    "MapGeometry",
    "PowerCard",
    "StateCard",
    "StateShape",
    "Zone",
    "load_deck",
]
