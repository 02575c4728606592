"""What the quiz modes share: the signed-in student, their own rounds, and their history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, TypeVar

from flask import abort
from flask_login import current_user
from sqlalchemy import func, select, update

from trainer import srs

from ..extensions import changed_rows, db
from ..memory import atomically, record
from ..models import User

HISTORY = 20

#: A race round's second call (a double submit, another tab, a retry after a lost reply).
ALREADY_CALLED = "You have already called GeoPlunge! in this round; nothing changed."
#: A call after the computer's decided the race (rulings B2, D1).
COMPUTER_CALLED_FIRST = "This round is over: the computer called first. Nothing changed."
#: A move sent to a game that has ended (State IQ, the card games).
GAME_OVER = "This game is over; nothing changed."
#: A card game's move sent twice, or from a page a move ago.
TABLE_MOVE_MADE = "That move was already made, or the page was out of date. Nothing changed; here is the game now."

M = TypeVar("M")


def current_student() -> User:
    """The signed-in student."""
    return current_user._get_current_object()


def own_or_404(model: type[M], token: str) -> M:
    """The signed-in student's round or game with ``token``; anyone else's is as unknown as a made-up one."""
    row = db.session.execute(select(model).where(model.token == token)).scalar_one_or_none()  # type: ignore[attr-defined]
    if row is None or row.student_id != current_user.id:  # type: ignore[attr-defined]
        abort(404)
    return row


def save_call(
    model: Any,
    round_id: int,
    values: dict[str, Any],
    student: User,
    outcomes: Sequence[srs.Outcome],
    now: dt.datetime,
) -> bool:
    """A race round's call and every review it causes, as one unit: all kept, or none (issue 18).

    The call is written only if the round has none yet, so a second call (a double submit, another
    tab, a retry after a lost reply) changes nothing and returns False.
    """

    def work() -> bool:
        saved = changed_rows(
            update(model).where(model.id == round_id, model.call.is_(None)).values(**values)
        )
        if saved != 1:
            return False
        for outcome in outcomes:
            record(student, outcome, now)
        return True

    return atomically(work)


def history(model: Any, *where: Any) -> tuple[list[Any], dict[str, float]]:
    """The student's last rounds, newest first, and their best time per level; ``where``: more
    conditions on the rounds (Border-Up leaves out its races against a classmate)."""
    rounds = (
        db.session.execute(
            select(model)
            .where(model.student_id == current_user.id, *where)
            .order_by(model.created_at.desc(), model.id.desc())
            .limit(HISTORY)
        )
        .scalars()
        .all()
    )
    rows = db.session.execute(
        select(model.level, func.min(model.seconds))
        .where(model.student_id == current_user.id, model.seconds.is_not(None), *where)
        .group_by(model.level)
    )
    bests: dict[str, float] = {level: seconds for level, seconds in rows}
    return list(rounds), bests
