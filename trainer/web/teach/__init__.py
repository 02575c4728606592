"""Teachers' classes and student accounts, and students joining a class."""

from . import assignment_edit, assignments, roster_import, tournaments, undo  # noqa: F401  (their views join the blueprint)
from .routes import bp

__all__ = ["bp"]
