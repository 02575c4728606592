"""Views of the deck: the 50 cards, sortable and filterable, one page per card, and the facts to
take away (an Anki package and a CSV file, issue 26)."""

from __future__ import annotations

import io
import threading

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    render_template_string,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from trainer import anki
from trainer.cards import Category, Zone

from .. import get_deck
from ..assets import YEAR
from ..mapsprite import SpriteLinks, sprite_of
from ..text import csv_line

bp = Blueprint("deck", __name__, url_prefix="/deck")

SORTS: dict[str, Category | None] = {"name": None} | {c.slug: c for c in Category}
SORT_LABELS = {
    "name": "Name (A to Z)",
    "size": "Size rank",
    "statehood": "Statehood rank",
    "population": "Population rank",
}


@bp.get("/")
def index() -> str:
    """All 50 cards, sorted by name or a ranking, optionally of one zone."""
    deck = get_deck()
    sort = request.args.get("sort", "name")
    if sort not in SORTS:
        sort = "name"
    zone_arg = request.args.get("zone", "")
    zone = Zone.from_slug(zone_arg) if zone_arg else None
    cards = deck.sorted_by(SORTS[sort])
    if zone is not None:
        cards = [card for card in cards if card.zone is zone]
    zone_counts = {z: len(deck.in_zone(z)) for z in Zone}
    return render_template(
        "deck/index.html",
        cards=cards,
        sort=sort,
        sorts=SORT_LABELS,
        zone=zone,
        zones=list(Zone),
        zone_counts=zone_counts,
        unknown_zone=bool(zone_arg) and zone is None,
    )


@bp.get("/<code>")
def card(code: str) -> str | Response:
    """One card, its Map card and its border states. Names work too: /deck/colorado."""
    deck = get_deck()
    state = deck.get(code.replace("-", " "))
    if state is None:
        abort(404)
    if code != state.postal.lower():
        return redirect(url_for("deck.card", code=state.postal.lower()), code=301)
    return render_template(
        "deck/card.html",
        state=state,
        map_card=deck.map_card(state),
        geometry=deck.geometry,
        neighbours=deck.neighbours(state),
    )


#: A Map card as a file of its own. Its title does not name the state: on a map fact's front it is
#: the question.
_MAP_SVG = (
    '{% from "deck/_map.html" import map_card %}'
    "{{ map_card(card, geometry, 'A Map card: one of the 50 states is red.', uid='gp', "
    "standalone=true) }}"
)
_PACKAGE_LOCK = threading.Lock()


def _package() -> bytes:
    """The Anki package, made once per app (it depends on the deck alone)."""
    made: bytes | None = current_app.extensions.get("anki_package")
    if made is not None:
        return made
    with _PACKAGE_LOCK:
        made = current_app.extensions.get("anki_package")
        if made is None:
            deck = get_deck()
            svgs = {
                state.postal: render_template_string(
                    _MAP_SVG, card=deck.map_card(state), geometry=deck.geometry
                ).strip()
                for state in deck
            }
            out = io.BytesIO()
            anki.write_package(deck, svgs, out)
            made = out.getvalue()
            current_app.extensions["anki_package"] = made
    return made


@bp.get("/map-<digest>.svg")
def map_sprite(digest: str) -> Response:
    """The 50 outlines in one file (:mod:`trainer.web.mapsprite`), gzipped when the browser
    accepts it; its URL names its hash, so it is kept for a year. Any other hash is not found."""
    sprite = sprite_of(get_deck())
    if digest != sprite.digest:
        abort(404)
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    response = current_app.response_class(
        sprite.packed if gzipped else sprite.raw, mimetype="image/svg+xml"
    )
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


def map_sprite_url() -> SpriteLinks:
    """The outlines' file, for a map's ``<use href="{{ sprite.href(postal) }}">``."""
    sprite = sprite_of(get_deck())
    return SpriteLinks(url_for("deck.map_sprite", digest=sprite.digest), sprite.ids)


@bp.get("/geoplunge-states.apkg")
def anki_package() -> Response:
    """The 400 facts as an Anki package, with the Map cards; a second download updates the notes
    it made the first time (stable ids, :mod:`trainer.anki`)."""
    response = current_app.response_class(_package(), mimetype="application/apkg")
    response.headers["Content-Disposition"] = 'attachment; filename="geoplunge-states.apkg"'
    return response


@bp.get("/geoplunge-facts.csv")
def facts_csv() -> Response:
    """The 400 facts as a CSV file (UTF-8 with a byte-order mark, as every CSV of the app)."""
    from ..teach.insights import CSV_BOM

    body = CSV_BOM + "".join(csv_line(row) for row in anki.csv_rows(get_deck()))
    response = current_app.response_class(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="geoplunge-facts.csv"'
    return response
