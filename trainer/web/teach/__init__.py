"""Teachers' classes and student accounts, and students joining a class."""

from . import assignments  # noqa: F401  (its views join the blueprint)
from .routes import bp

__all__ = ["bp"]
