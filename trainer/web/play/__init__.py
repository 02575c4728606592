"""Play: the Level 1 quiz modes against a computer team (Border-Up, State IQ, Dashing States)."""

from . import border_up, dashing, games  # noqa: F401  (their views join the blueprint)
from .routes import bp

__all__ = ["bp"]
