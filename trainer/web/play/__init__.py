"""Play: the Level 1 quiz modes against a computer team (Border-Up, State IQ, Dashing States),
the card games, and Combo 1 matches of the Level 1 games.

Every module of this package is imported (sorted by name), so a new mode's module joins the
blueprint, and registers its web adapter, without an import line here.
"""

import importlib
import pkgutil

for _module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")

from .routes import bp  # noqa: E402  (the blueprint, once every module has added its views)

__all__ = ["bp"]
