"""Play: the Level 1 quiz modes against a computer team (State IQ so far)."""

from .routes import bp

__all__ = ["bp"]
