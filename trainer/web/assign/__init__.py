"""A student's assignments: what their teachers set, how far they have got, and a start button."""

from .routes import bp

__all__ = ["bp"]
