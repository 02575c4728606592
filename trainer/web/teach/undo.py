"""Undoing "Take <student> out of <class>" for a while (issue #24, "Confirm or undo").

Taking a student out deletes their membership row; the row, every column of it, travels in a
signed token (itsdangerous, keyed by the app's secret key, as Flask signs its session), so no
table keeps removals. The token names the teacher, the class and the student, and is good for
:data:`UNDO_SECONDS`. Undoing puts the row back as it was (same ``joined_at``...), so the
student's assignments read their progress as before (progress is computed from the log). It acts
once: a student already back in the class (by an undo, or by joining again) is not put back twice.

The tokens of the teacher's last removals are kept in their session, for the "Removed" page that
offers the Undo buttons; the session only lists them: the token itself is what the undo checks.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, session, url_for
from flask_wtf import FlaskForm
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.types import TypeDecorator, TypeEngine
from werkzeug.wrappers import Response
from wtforms import HiddenField, SubmitField

from ..extensions import db
from ..models import ClassMembership, SchoolClass, User
from ..security import teacher_required
from .names import shown_name
from .routes import _user, bp, own_class

#: How long a removal can be undone.
UNDO_SECONDS = 15 * 60
#: The removals a session remembers for the "Removed" page.
_KEPT = 5
_SESSION_KEY = "teach_undo_remove"
_SALT = "teach.undo-remove"


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt=_SALT)


def _row_of(membership: ClassMembership) -> dict[str, Any]:
    """Every column of the membership but its id, as JSON (datetimes and dates as ISO text)."""
    row: dict[str, Any] = {}
    for column in ClassMembership.__table__.columns:
        if column.primary_key:
            continue
        value = getattr(membership, column.key)
        if isinstance(value, dt.datetime | dt.date):
            value = value.isoformat()
        row[column.key] = value
    return row


def _python_type(kind: TypeEngine[Any]) -> type:
    """The Python type a column's values have (a decorated type's: its base type's)."""
    if isinstance(kind, TypeDecorator):
        kind = kind.impl_instance
    try:
        return kind.python_type
    except NotImplementedError:
        return object


def _membership_from(row: dict[str, Any]) -> ClassMembership:
    """The membership ``row`` describes (:func:`_row_of` read back)."""
    values: dict[str, Any] = {}
    for column in ClassMembership.__table__.columns:
        if column.primary_key or column.key not in row:
            continue
        value = row[column.key]
        if isinstance(value, str):
            kind = _python_type(column.type)
            if kind is dt.datetime:
                value = dt.datetime.fromisoformat(value)
            elif kind is dt.date:
                value = dt.date.fromisoformat(value)
        values[column.key] = value
    return ClassMembership(**values)


def removal_token(klass: SchoolClass, membership: ClassMembership) -> str:
    """A signed token that can put ``membership`` back (by this teacher, in this class)."""
    return _serializer().dumps(
        {
            "teacher": klass.teacher_id,
            "class": klass.id,
            "student": membership.student_id,
            "row": _row_of(membership),
        }
    )


def take_out(klass: SchoolClass, membership: ClassMembership) -> str:
    """Take the student of ``membership`` out of ``klass`` (P-S4) and return the token that can
    put them back: the caller commits, then passes it to :func:`remember_removal`."""
    token = removal_token(klass, membership)
    db.session.execute(delete(ClassMembership).where(ClassMembership.id == membership.id))
    return token


def remember_removal(token: str) -> None:
    """Keep the token for the "Removed" page (the session's last few removals)."""
    session[_SESSION_KEY] = [token, *session.get(_SESSION_KEY, [])][:_KEPT]


class UndoRemoveForm(FlaskForm):
    """The Undo button of one removal: its signed token, and a CSRF token."""

    token = HiddenField()
    submit = SubmitField("Undo")


class UndoRefused(ValueError):
    """The undo cannot be done; the message says why, for the teacher."""


def _read(token: str, klass: SchoolClass) -> dict[str, Any]:
    """The removal ``token`` holds, when it is this teacher's, for ``klass``, and still in time.

    Raises:
        UndoRefused: a token made up or altered, for another class or teacher, or too old.
    """
    try:
        data = _serializer().loads(token, max_age=UNDO_SECONDS)
    except SignatureExpired:
        raise UndoRefused(
            f"Too late to undo: a removal can be undone for {UNDO_SECONDS // 60} minutes. "
            "Nothing was changed. The student can join again with the class code."
        ) from None
    except BadSignature:
        raise UndoRefused("That Undo button is not valid. Nothing was changed.") from None
    if (
        not isinstance(data, dict)
        or data.get("teacher") != _user().id
        or data.get("class") != klass.id
        or not isinstance(data.get("student"), int)
        or not isinstance(data.get("row"), dict)
        or data["row"].get("student_id") != data["student"]
        or data["row"].get("class_id") != klass.id
    ):
        raise UndoRefused("That Undo button is not for this class. Nothing was changed.")
    return data


@dataclass(frozen=True)
class Removal:
    token: str
    student_id: int
    #: The student as the teacher's pages show them (their real name in the class, if given).
    shown: str


def _removals(klass: SchoolClass) -> list[Removal]:
    """The session's removals from ``klass`` that can still be undone (the student not back yet)."""
    found = []
    seen: set[int] = set()
    for token in session.get(_SESSION_KEY, []):
        try:
            data = _read(token, klass)
        except UndoRefused:
            continue
        sid = data["student"]
        if sid in seen:
            continue
        seen.add(sid)
        back = db.session.execute(
            select(ClassMembership.id).where(
                ClassMembership.class_id == klass.id, ClassMembership.student_id == sid
            )
        ).first()
        student = db.session.get(User, sid)
        if back is None and student is not None:
            name = data["row"].get("display_name")
            shown = shown_name(student.username, name if isinstance(name, str) else None)
            found.append(Removal(token, sid, shown))
    return found


@bp.get("/classes/<int:class_id>/removed")
@teacher_required
def removed(class_id: int) -> str:
    """The students just taken out of the class, each with an Undo button while it can be undone."""
    klass = own_class(class_id)
    return render_template(
        "teach/removed.html",
        klass=klass,
        removals=_removals(klass),
        minutes=UNDO_SECONDS // 60,
    )


@bp.post("/classes/<int:class_id>/removed/undo")
@teacher_required
def undo_remove(class_id: int) -> Response:
    """Put a student just taken out back in the class, as they were (once, in time, by its teacher)."""
    klass = own_class(class_id)
    form = UndoRemoveForm()
    if not form.validate_on_submit():
        abort(400)
    back_to_class = redirect(url_for("teach.class_page", class_id=klass.id))
    try:
        data = _read(form.token.data or "", klass)
    except UndoRefused as refused:
        flash(str(refused), "error")
        return back_to_class
    student = db.session.get(User, data["student"])
    if student is None:
        flash("That student's account no longer exists. Nothing was changed.", "error")
        return back_to_class
    membership = _membership_from(data["row"])
    already = f"{student.username} is already in {klass.name}. Nothing was changed."
    exists = db.session.execute(
        select(ClassMembership.id).where(
            ClassMembership.class_id == klass.id, ClassMembership.student_id == student.id
        )
    ).first()
    if exists is not None:
        flash(already, "info")
        return back_to_class
    db.session.add(membership)
    try:
        db.session.commit()
    except IntegrityError:
        # The same undo sent twice at once: the first one counted.
        db.session.rollback()
        flash(already, "info")
        return back_to_class
    flash(f"{student.username} is back in {klass.name}, as before.", "success")
    return back_to_class
