"""The WSGI entry point of an installed copy: ``flask --app trainer.web.app run``,
``gunicorn trainer.web.app:app`` or the ``geoplunge`` command (the checkout's ``app.py`` is this)."""

from __future__ import annotations

import sys

from trainer.cards import DeckError

from . import create_app

try:
    app = create_app()
except DeckError as error:
    # Refuse to start, naming the row, rather than teach a wrong fact.
    sys.exit(f"GeoPlunge Trainer refuses to start: the deck data is wrong.\n{error}")


def main() -> None:
    """``geoplunge ARGS``: Flask's command line for this app (``geoplunge db upgrade``,
    ``geoplunge run``, ``geoplunge seed-demo`` ...), from any directory."""
    from flask.cli import FlaskGroup

    FlaskGroup(create_app=lambda: app)(prog_name="geoplunge")
