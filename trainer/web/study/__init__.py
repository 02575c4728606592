"""Study: flashcard review rounds over the memory model, the study home and study settings."""

from .routes import bp

__all__ = ["bp"]
