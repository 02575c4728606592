"""The home page."""

from .routes import bp

__all__ = ["bp"]
