"""The home page: what GeoPlunge Trainer is and where to start."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from .. import get_deck

bp = Blueprint("main", __name__)


@bp.get("/")
def home() -> str:
    """Explain the app to a newcomer and show a few cards to start with."""
    deck = get_deck()
    examples = [deck["CA"], deck["CO"], deck["MD"]]
    return render_template("main/home.html", examples=examples)


@bp.get("/about")
def about() -> str:
    """Whose games these are (LearningPlunge's), where every figure comes from, and what the app
    keeps about students: for a teacher deciding whether to use it (issue 26)."""
    return render_template("main/about.html")


@bp.get("/healthz")
def healthz() -> Response:
    """Liveness check for a load balancer: plain "ok", without touching the database."""
    return Response("ok", mimetype="text/plain")
