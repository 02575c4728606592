"""Teachers' classes and student accounts, and students joining a class."""

from .routes import bp

__all__ = ["bp"]
