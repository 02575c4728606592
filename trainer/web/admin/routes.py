"""Views for the school admin: the school's teachers, and invite links for new teachers.

Who may be a teacher is the school's decision: a teacher can set the passwords of the accounts
they make and see their students' work, so teacher accounts come from an admin's invite (unless
``OPEN_TEACHER_SIGNUP`` is on, for a one-teacher install).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import ParamSpec, TypeVar

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import func, select
from sqlalchemy.orm import aliased
from werkzeug.wrappers import Response

from ..extensions import db
from ..models import Role, SchoolClass, TeacherInvite, User, utcnow
from ..security import teacher_required
from . import invites

bp = Blueprint("admin", __name__, url_prefix="/admin")

P = ParamSpec("P")
R = TypeVar("R")

#: Invites no longer usable stay listed this long (who used which, which were taken back).
_PAST_INVITES_SHOWN = dt.timedelta(days=30)


def admin_required(view: Callable[P, R]) -> Callable[P, R | Response]:
    """Let only school admins in (a teacher who is not an admin gets 403, like any other role)."""

    @teacher_required
    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        if not current_user.is_admin:
            abort(403)
        return view(*args, **kwargs)

    return wrapped


def _admin() -> User:
    return current_user._get_current_object()


@dataclass(frozen=True)
class Teacher:
    username: str
    email: str | None
    is_admin: bool
    created_at: dt.datetime
    last_login_at: dt.datetime | None
    classes: int


@dataclass(frozen=True)
class InviteRow:
    id: int
    created_at: dt.datetime
    expires_at: dt.datetime
    status: invites.InviteStatus
    used_by: str | None
    created_by: str


def _teachers() -> list[Teacher]:
    classes = (
        select(SchoolClass.teacher_id, func.count(SchoolClass.id).label("classes"))
        .group_by(SchoolClass.teacher_id)
        .subquery()
    )
    rows = db.session.execute(
        select(
            User.username,
            User.email,
            User.is_admin,
            User.created_at,
            User.last_login_at,
            func.coalesce(classes.c.classes, 0),
        )
        .outerjoin(classes, classes.c.teacher_id == User.id)
        .where(User.role == Role.TEACHER)
        .order_by(User.username_key)
    ).all()
    return [Teacher(*row) for row in rows]


def _invites(now: dt.datetime) -> list[InviteRow]:
    used_by, created_by = aliased(User), aliased(User)
    rows = db.session.execute(
        select(TeacherInvite, used_by.username, created_by.username)
        .outerjoin(used_by, used_by.id == TeacherInvite.used_by_id)
        .join(created_by, created_by.id == TeacherInvite.created_by_id)
        .where(
            TeacherInvite.created_at
            > now - dt.timedelta(days=invites.INVITE_DAYS) - _PAST_INVITES_SHOWN
        )
        .order_by(TeacherInvite.created_at.desc(), TeacherInvite.id.desc())
    ).all()
    return [
        InviteRow(
            invite.id,
            invite.created_at,
            invite.expires_at,
            invites.status(invite, now),
            used_name,
            created_name,
        )
        for invite, used_name, created_name in rows
    ]


@bp.get("/")
@admin_required
def index() -> str:
    """The school's teachers and the invite links of the last weeks."""
    now = utcnow()
    return render_template(
        "admin/index.html",
        teachers=_teachers(),
        invites=_invites(now),
        invite_days=invites.INVITE_DAYS,
        open_signup=current_app.config["OPEN_TEACHER_SIGNUP"],
    )


@bp.post("/invites")
@admin_required
def new_invite() -> Response:
    """Make a single-use invite link for a new teacher and show it, once."""
    if not FlaskForm().validate_on_submit():  # a button: its CSRF token and nothing else
        abort(400)
    token = invites.new_invite(_admin())
    db.session.commit()
    html = render_template(
        "admin/invite_created.html",
        link=url_for("auth.invite_signup", token=token, _external=True),
        invite_days=invites.INVITE_DAYS,
    )
    response = current_app.make_response(html)
    # The link makes a teacher account: never kept by the browser or a proxy.
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/invites/<int:invite_id>/revoke")
@admin_required
def revoke_invite(invite_id: int) -> Response:
    """Take an invite link back before it is used: it then lets nobody in."""
    if not FlaskForm().validate_on_submit():  # a button: its CSRF token and nothing else
        abort(400)
    invite = db.get_or_404(TeacherInvite, invite_id)
    now = utcnow()
    state = invites.status(invite, now)
    if state is invites.InviteStatus.OPEN:
        invite.revoked_at = now
        db.session.commit()
        flash("The invite link is taken back: it no longer works.", "success")
    else:
        flash(f"That invite link is {state.value} already: nothing to take back.", "info")
    return redirect(url_for("admin.index"))
