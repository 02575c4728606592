"""Play: the Level 1 quiz modes against a computer team (Border-Up, State IQ, Dashing States),
the card games, and Combo 1 matches of the Level 1 games."""

from . import border_up, combo, dashing, games  # noqa: F401  (their views join the blueprint)
from .routes import bp

__all__ = ["bp"]
