"""Students' assignment pages. Playing from here deals the round from the assignment's scope."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from trainer import srs
from trainer.assignments import ACTIVITIES, Activity, Scope, test_day_sentence
from trainer.facts import Fact
from trainer.games import GameError

from .. import get_deck
from ..extensions import db
from ..memory import memories_of, settings_for, today_for, weights_for
from ..models import Assignment, AssignmentRound, StateIqGame, User, utcnow
from ..play.border_up import new_border_up
from ..play.dashing import new_dashing
from ..play.games import new_card_game
from ..play.routes import after_deal, new_state_iq
from ..progress import (
    activities_of,
    assignment_for_student,
    describe,
    my_assignments,
    progress,
    scope_of,
)
from ..security import student_required
from ..study.routes import new_study_round
from ..teach.forms import StartActivityForm
from .aims import aimed_target

bp = Blueprint("assign", __name__, url_prefix="/assignments")


def _student() -> User:
    return current_user._get_current_object()  # type: ignore[no-any-return]


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
        token, target = _deal(student, activity, scope_of(assignment), form.level.data)
    except GameError:  # pragma: no cover - every registered game plays with its minimum players
        abort(400)
    if token is None:
        flash(
            "Nothing is left to practise in this assignment's scope right now. Well done!", "info"
        )
        return redirect(here)
    db.session.add(
        AssignmentRound(
            assignment_id=assignment.id,
            student_id=student.id,
            activity=activity.slug,
            round_token=token,
        )
    )
    db.session.commit()
    if activity.slug == "state-iq":
        after_deal(
            db.session.execute(
                select(StateIqGame).where(StateIqGame.token == token.partition(":")[2])
            ).scalar_one()
        )
    return redirect(target)


def _deal(student: User, activity: Activity, scope: Scope, level: str) -> tuple[str | None, str]:
    """Deal a round of ``activity`` from ``scope`` (not committed): its review log token and its page."""
    deck = get_deck()
    facets = set(scope.facet_set([activity])) if scope.facets else None
    postals = set(scope.postals(deck) or ()) or None
    if activity.slug == "review":
        facts = scope.facts(deck, [activity])
        extra = _weakest_answered(student, [f.key for f in facts])
        round_ = new_study_round(student, facets, postals, scope.area, extra=extra)
        if round_ is None:
            return None, ""
        return f"review:{round_.token}", url_for("study.item", token=round_.token, index=1)
    if activity.slug == "state-iq":
        game = new_state_iq(student, level, False, facets, postals)
        return f"state_iq:{game.token}", url_for("play.state_iq_game", token=game.token)
    if activity.slug == "dashing-states":
        row = new_dashing(student, level, facets, postals)
        return f"dashing_states:{row.token}", url_for("play.dashing_round", token=row.token)
    if activity.slug == "border-up":
        row = new_border_up(student, level, postals)
        return f"border_up:{row.token}", url_for("play.border_up_round", token=row.token)
    game = new_card_game(student.id, activity.slug, 2, 1, level, True)
    return f"game:{game.token}", url_for("play.game_table", token=game.token, since=0)


def _weakest_answered(student: User, keys: list[str]) -> list[str]:
    """The facts of ``keys`` the student has answered, least likely remembered first (extra practice)."""
    now = utcnow()
    zone = settings_for(student).time_zone
    memories = memories_of(student, keys)
    weights = weights_for(student)
    return sorted(
        memories, key=lambda key: (srs.retrievability(memories[key], now, zone, weights), key)
    )


def open_count(student: User) -> int:
    """How many of the student's assignments are not finished (for the nav badge)."""
    return sum(1 for m in my_assignments(student) if not m.progress.status.finished)
