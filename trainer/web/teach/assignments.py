"""Assignments: a teacher sets practice for a class and follows it; progress is read, never stored."""

from __future__ import annotations

import datetime as dt

from flask import abort, flash, redirect, render_template, url_for
from sqlalchemy import delete, select
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from trainer.assignments import ACTIVITIES, Amount, Status, window

from .. import get_deck
from ..extensions import db
from ..models import Assignment, AssignmentStudent, SchoolClass, utcnow
from ..progress import activities_of, assigned_students, class_assignments, dates_of, describe, progress
from ..security import teacher_required
from ..text import csv_line
from .forms import AssignmentForm, ConfirmForm
from .routes import _own_class, _students_of, _teacher_zone, bp


def default_title(activities: list[str], amount: Amount, quantity: int | None, target: float | None) -> str:
    """What the assignment asks, in a few words: "5 rounds of State IQ"."""
    names = [ACTIVITIES[slug].title for slug in activities]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    if amount is Amount.ROUNDS:
        return f"{quantity} round{'' if quantity == 1 else 's'} of {what}"[:80]
    if amount is Amount.REVIEWS:
        return f"{quantity} answer{'' if quantity == 1 else 's'} in {what}"[:80]
    return f"Remember it all at {round((target or 0.9) * 100)}%: {what}"[:80]


def teacher_today() -> tuple[dt.date, str]:
    """Today in the teacher's time zone, and the zone's name (assignment dates are read in it)."""
    zone = _teacher_zone()
    return utcnow().astimezone(zone).date(), zone.key


def _own_assignment(klass: SchoolClass, assignment_id: int) -> Assignment:
    assignment = db.session.execute(
        select(Assignment).where(Assignment.id == assignment_id, Assignment.class_id == klass.id)
    ).scalar_one_or_none()
    if assignment is None:
        abort(404)
    return assignment


@bp.route("/classes/<int:class_id>/assignments/new", methods=["GET", "POST"])
@teacher_required
def new_assignment(class_id: int) -> str | Response | tuple[str, int]:
    """Set practice for the class or some of its students."""
    klass = _own_class(class_id)
    students = _students_of(klass)
    today, zone = teacher_today()
    form = AssignmentForm(
        get_deck(),
        [SelectChoice(s.id, s.username) for s in students],
        today,
        data={"starts_on": today, "due_on": today + dt.timedelta(days=7), "quantity": 5},
    )
    if form.validate_on_submit():
        amount = Amount(form.amount.data)
        quantity = form.quantity.data if amount is not Amount.RECALL else None
        target = form.target.data / 100 if amount is Amount.RECALL else None
        starts_at, due_at = window(form.starts_on.data, form.due_on.data, zone)
        activities = [a.slug for a in form.chosen_activities()]
        assignment = Assignment(
            class_id=klass.id,
            title=(form.title.data or "").strip() or default_title(activities, amount, quantity, target),
            activities=activities,
            scope=form.scope.to_json(),
            amount=amount.value,
            quantity=quantity,
            target=target,
            starts_at=starts_at,
            due_at=due_at,
            time_zone=zone,
            everyone=form.who.data != "some",
        )
        db.session.add(assignment)
        db.session.flush()
        if not assignment.everyone:
            # Only students of this class can be chosen (the form's choices); one transaction.
            db.session.add_all(AssignmentStudent(assignment_id=assignment.id, student_id=sid) for sid in form.chosen)
        db.session.commit()
        flash(f"Assignment “{assignment.title}” set.", "success")
        return redirect(url_for("teach.assignment_page", class_id=klass.id, assignment_id=assignment.id))
    status = 400 if form.is_submitted() else 200
    return render_template("teach/assignment_new.html", klass=klass, form=form, has_students=bool(students)), status


@bp.get("/classes/<int:class_id>/assignments/<int:assignment_id>")
@teacher_required
def assignment_page(class_id: int, assignment_id: int) -> str:
    """One assignment: what it asks, and each student's progress."""
    klass = _own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    students = {s.id: s for s in _students_of(klass)}
    ids = [sid for sid in assigned_students(assignment) if sid in students]
    now = utcnow()
    found = progress(assignment, ids, now)
    rows = sorted(((students[sid], found[sid]) for sid in ids), key=lambda r: r[0].username.casefold())
    counts = {status: sum(1 for _, p in rows if p.status is status) for status in Status}
    return render_template(
        "teach/assignment.html",
        klass=klass,
        assignment=assignment,
        rows=rows,
        counts=counts,
        describe=describe(assignment),
        confirm=ConfirmForm(),
        Status=Status,
    )


@bp.post("/classes/<int:class_id>/assignments/<int:assignment_id>/delete")
@teacher_required
def delete_assignment(class_id: int, assignment_id: int) -> Response:
    """Take the assignment away; what the students practised stays in their history."""
    klass = _own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    title = assignment.title
    db.session.execute(delete(Assignment).where(Assignment.id == assignment.id))
    db.session.commit()
    flash(f"Assignment “{title}” deleted. What the students practised stays in their history.", "success")
    return redirect(url_for("teach.class_page", class_id=klass.id))


@bp.get("/classes/<int:class_id>/progress.csv")
@teacher_required
def export_progress(class_id: int) -> Response:
    """The class's progress: one row per student and assignment."""
    klass = _own_class(class_id)
    students = {s.id: s for s in _students_of(klass)}
    now = utcnow()
    # Every cell through the one CSV guard (P-H11): titles are typed by teachers.
    lines = [csv_line(["student", "assignment", "activities", "starts", "due", "status", "done", "needed", "late", "completed_at"])]
    for assignment in reversed(class_assignments(klass)):
        ids = [sid for sid in assigned_students(assignment) if sid in students]
        found = progress(assignment, ids, now)
        starts_on, due_on = dates_of(assignment)
        for sid in sorted(ids, key=lambda i: students[i].username.casefold()):
            p = found[sid]
            cells = [
                students[sid].username,
                assignment.title,
                " / ".join(a.title for a in activities_of(assignment)),
                starts_on.isoformat(),
                due_on.isoformat(),
                p.status.value,
                p.done,
                p.needed,
                p.late,
                p.completed_at.isoformat(timespec="seconds") if p.completed_at else "",
            ]
            lines.append(csv_line(cells))
    filename = f"progress-class-{klass.id}-{now:%Y-%m-%d}.csv"
    return Response(
        "".join(lines),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )
