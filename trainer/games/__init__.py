"""The GeoPlunge card games behind one interface (OpenSpiel-style), with computer players.

Each game registers itself in ``REGISTRY`` when its module is imported (see ``Game``); importing
this package imports every module in it (a new game's module needs no line here), and with them
State IQ on the same interface (kept apart from the card games, in ``REGISTRY.other_games``). Each game's computer players think in its own module of
:mod:`trainer.games.bots`.
"""

import importlib
import pkgutil

from .base import (
    REGISTRY,
    TERMINAL,
    Event,
    Game,
    GameError,
    IllegalAction,
    LeadCard,
    Move,
    Params,
    PlayCard,
    State,
    make_game,
    replay,
)
from .geoclash_down_back import GeoClashDownBack
from .geography_war import GeographyWar
from .geoplunge_51 import GeoPlunge51
from .geopower_toss import GeoPowerToss
from .play_the_ranks import PlayTheRanks
from .players import (
    Level,
    RandomPlayer,
    RulePlayer,
    SearchPlayer,
    make_player,
    play_computer_turns,
)
from .state_iq import StateIQGame

__all__ = [
    "REGISTRY",
    "TERMINAL",
    "Event",
    "Game",
    "GameError",
    "GeoClashDownBack",
    "GeoPlunge51",
    "GeoPowerToss",
    "GeographyWar",
    "IllegalAction",
    "LeadCard",
    "Level",
    "Move",
    "Params",
    "PlayCard",
    "PlayTheRanks",
    "RandomPlayer",
    "RulePlayer",
    "SearchPlayer",
    "State",
    "StateIQGame",
    "make_game",
    "make_player",
    "play_computer_turns",
    "replay",
]


def _import_every_game() -> None:
    """Import every module of this package, in name order, so that each game's class is defined
    and registers itself (the order of the games' menu is their ``menu_order``)."""
    for module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
        importlib.import_module(f"{__name__}.{module}")


_import_every_game()
