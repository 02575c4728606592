"""Progress dashboards: a student's own, and a teacher's per class, drawn with plotly."""

from .routes import bp

__all__ = ["bp"]
