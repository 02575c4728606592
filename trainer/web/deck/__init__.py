"""The deck browser: all 50 GeoPlunge cards and a page per card with its Map card."""

from .routes import bp

__all__ = ["bp"]
