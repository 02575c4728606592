"""Computer players' thinking, one module per game (as OpenSpiel keeps its bots apart from its games).

Each module here defines a :class:`Bot` subclass that names its game; importing this package
imports every module in it, so each bot registers itself in :data:`BOTS`.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import BOTS, Bot, bot_for

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["BOTS", "Bot", "bot_for"]
