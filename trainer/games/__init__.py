"""The GeoPlunge card games behind one interface (OpenSpiel-style), with computer players."""

from .base import (
    REGISTRY,
    TERMINAL,
    Event,
    Game,
    GameError,
    IllegalAction,
    Move,
    Params,
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

for _game in (GeoPlunge51, PlayTheRanks, GeoPowerToss, GeoClashDownBack, GeographyWar):
    REGISTRY.register(_game)

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
    "Level",
    "Move",
    "Params",
    "PlayTheRanks",
    "RandomPlayer",
    "RulePlayer",
    "SearchPlayer",
    "State",
    "make_game",
    "make_player",
    "play_computer_turns",
    "replay",
]
