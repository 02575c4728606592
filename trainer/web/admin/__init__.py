"""The school admin: the school's teachers, and single-use invite links for new ones."""

from .routes import bp

__all__ = ["bp"]
