"""The WSGI entry point: ``flask --app app run`` or ``gunicorn app:app``."""

import sys

from trainer.cards import DeckError
from trainer.web import create_app

try:
    app = create_app()
except DeckError as error:
    # Refuse to start, naming the row, rather than teach a wrong fact.
    sys.exit(f"GeoPlunge Trainer refuses to start: the deck data is wrong.\n{error}")
