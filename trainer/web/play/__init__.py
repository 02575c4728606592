"""Play: the Level 1 quiz modes against a computer team (State IQ, Dashing States)."""

from . import dashing  # noqa: F401  (its views join the blueprint)
from .routes import bp

__all__ = ["bp"]
