"""Progress dashboards: a student's own, and a teacher's per class, drawn with plotly; and the
student's card album (no plotly)."""

from . import album as _album  # noqa: F401  (its view is on ``bp``)
from .routes import bp

__all__ = ["bp"]
