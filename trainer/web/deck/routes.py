"""Views of the deck: the 50 cards, sortable and filterable, and one page per card."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from trainer.cards import Category, Zone

from .. import get_deck

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
