"""Students' assignment pages. Playing from here deals the round from the assignment's scope."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from trainer.assignments import ACTIVITIES, Activity, Scope, test_day_sentence
from trainer.facts import Fact
from trainer.games import GameError

from .. import get_deck
from ..extensions import db
from ..memory import today_for
from ..models import Assignment, AssignmentRound, User, utcnow
from ..modes import Dealt, adapter
from ..progress import (
    activities_of,
    assignment_for_student,
    describe,
    my_assignments,
    progress,
    scope_of,
)
from ..security import student_required
from ..teach.forms import StartActivityForm
from .aims import aimed_target

bp = Blueprint("assign", __name__, url_prefix="/assignments")
# The main navigation's links to the modes (every page's layout; see trainer.web.modes).


def _student() -> User:
    return current_user._get_current_object()


def _mine_or_404(assignment_id: int) -> tuple[Assignment, str]:
    found = assignment_for_student(_student(), assignment_id)
    if found is None:
        abort(404)
    return found


@bp.get("/")
@student_required
def index() -> str:
    """Every assignment set for the student, with progress."""
    return render_template("assign/index.html", items=my_assignments(_student()))


@bp.get("/<int:assignment_id>")
@student_required
def page(assignment_id: int) -> str:
    """One assignment: what to do, how far the student has got, and a start button per activity."""
    assignment, class_name = _mine_or_404(assignment_id)
    student = _student()
    found = progress(assignment, [student.id], utcnow())[student.id]
    weakest = []
    if found.weakest:
        deck = get_deck()
        facts = [Fact.from_key(key) for key in found.weakest]
        weakest = [(deck[f.postal].name, f.facet.label) for f in facts]
    return render_template(
        "assign/page.html",
        assignment=assignment,
        class_name=class_name,
        progress=found,
        text=describe(assignment),
        activities=activities_of(assignment),
        weakest=weakest,
        form=StartActivityForm(),
        upcoming=utcnow() < assignment.starts_at,
        test_sentence=_test_sentence(assignment, student),
    )


def _test_sentence(assignment: Assignment, student: User) -> str:
    """The assignment's test day in plain words, while it is still ahead (P-A5)."""
    if assignment.test_on is None or assignment.test_on < today_for(student).date:
        return ""
    return test_day_sentence(assignment.test_on, round(aimed_target(assignment) * 100), you=True)


@bp.post("/<int:assignment_id>/start")
@student_required
def start(assignment_id: int) -> Response:
    """Start one of the assignment's activities, dealt from its scope; the round then counts for it."""
    assignment, _class_name = _mine_or_404(assignment_id)
    here = url_for("assign.page", assignment_id=assignment.id)
    form = StartActivityForm()
    valid = form.validate_on_submit()
    if form.activity.data not in assignment.activities or form.activity.data not in ACTIVITIES:
        flash("That activity is not part of this assignment; nothing was started.", "error")
        return redirect(here)
    if not valid:
        flash(
            "Choose a computer level (easy, medium or hard), then press Start again; nothing was started.",
            "error",
        )
        return redirect(here)
    if utcnow() < assignment.starts_at:
        flash(
            "This assignment has not started yet; rounds played before it starts do not count.",
            "info",
        )
        return redirect(here)
    activity = ACTIVITIES[form.activity.data]
    student = _student()
    try:
        dealt = _deal(student, activity, scope_of(assignment), form.level.data)
    except GameError:  # pragma: no cover - every registered game plays with its minimum players
        abort(400)
    if dealt is None:
        flash(
            "Nothing is left to practise in this assignment's scope right now. Well done!", "info"
        )
        return redirect(here)
    db.session.add(
        AssignmentRound(
            assignment_id=assignment.id,
            student_id=student.id,
            activity=activity.slug,
            round_token=dealt.token,
        )
    )
    db.session.commit()
    if dealt.after_commit is not None:
        dealt.after_commit()
    return redirect(dealt.url)


def _deal(student: User, activity: Activity, scope: Scope, level: str) -> Dealt | None:
    """Deal a round of ``activity`` from ``scope`` (not committed), as its mode's web adapter
    deals it; None when nothing is left to practise there."""
    found = adapter(activity.slug)
    if found is None or found.deal is None:
        raise LookupError(f"The mode {activity.slug!r} cannot be dealt for an assignment.")
    return found.deal(student, activity, scope, level)


def open_count(student: User) -> int:
    """How many of the student's assignments are not finished (for the nav badge)."""
    return sum(1 for m in my_assignments(student) if not m.progress.status.finished)
