"""The card album (#21): the student's own cards, each at its level (ruling P-L1), and the map
coloured by level. No plotly: the map is the app's own SVG geometry, as the deck pages draw it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from flask import render_template
from flask_login import current_user
from sqlalchemy import select

from trainer import album as core
from trainer.facts import Facet

from .. import get_deck
from ..dashboards import recall_expr
from ..extensions import db
from ..memory import settings_for
from ..models import MemoryCard, User, utcnow
from ..security import student_required
from .routes import bp

#: The legend's order: known first.
LEGEND = (core.CardLevel.GOLD, core.CardLevel.SILVER, core.CardLevel.BRONZE, core.CardLevel.NOT_MET)


def memories_of(student_id: int, at: dt.datetime) -> dict[str, dict[Facet, core.FactMemory]]:
    """The student's memory of every fact they have answered, by state then facet: predicted
    recall at ``at`` (the dashboards' SQL forgetting curve, equal to ``srs.recall``) and stability.
    One query over the student's memory cards."""
    query = select(
        MemoryCard.fact_key,
        MemoryCard.facet,
        recall_expr(
            MemoryCard.stability,
            MemoryCard.last_study_day,
            MemoryCard.student_id,
            [student_id],
            at,
        ),
        MemoryCard.stability,
    ).where(MemoryCard.student_id == student_id)
    out: dict[str, dict[Facet, core.FactMemory]] = {}
    for fact_key, facet, recall, stability in db.session.execute(query):
        out.setdefault(fact_key[:2], {})[Facet(facet)] = core.FactMemory(
            float(recall or 0.0), None if stability is None else float(stability)
        )
    return out


def student_album(student: User, now: dt.datetime) -> tuple[core.Album, float]:
    """The student's album now, and the goal (desired retention) it was judged against."""
    goal = settings_for(student).desired_retention
    return core.album(get_deck(), memories_of(student.id, now), goal), goal


@bp.get("/album/")
@student_required
def album() -> str:
    """The student's card album: 50 cards, each filled in as its facts are learned, and a map."""
    me: User = current_user._get_current_object()
    book, goal = student_album(me, utcnow())
    deck = get_deck()
    levels: Mapping[str, Any] = {card.postal: card for card in book.cards}
    return render_template(
        "dashboard/album.html",
        album=book,
        cards=[(deck[card.postal], card) for card in book.cards],
        levels=levels,
        legend=[(level, book.count(level)) for level in LEGEND],
        goal=goal,
        geometry=deck.geometry,
        CardLevel=core.CardLevel,
    )
