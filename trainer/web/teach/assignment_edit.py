"""Editing an assignment (issue #24): the new-assignment form, filled in; saving changes its title,
activities, scope, amount or goal, dates, test day and students. Progress is never stored (it is
read from the log and the round records), so it simply follows the new settings."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from sqlalchemy import delete, select
from werkzeug.wrappers import Response

from trainer.assignments import Amount, default_title, window

from .. import get_deck
from ..assign.aims import aim_now
from ..extensions import db
from ..models import Assignment, AssignmentStudent, SchoolClass
from ..progress import activities_of, dates_of, scope_of
from ..security import teacher_required
from .assignments import _assignment_form, _form_preview, _own_assignment
from .forms import AssignmentForm
from .routes import ClassStudent, bp, own_class, students_of


def _title_is_default(assignment: Assignment) -> bool:
    """True when the title is the one the app gave (the teacher typed none): it then follows an edit."""
    amount = Amount(assignment.amount)
    return assignment.title == default_title(
        scope_of(assignment),
        get_deck(),
        activities_of(assignment),
        amount,
        assignment.quantity,
        assignment.target,
    )


def _fill(form: AssignmentForm, assignment: Assignment) -> None:
    """Put the assignment's settings in the (unsubmitted) form."""
    scope = scope_of(assignment)
    starts_on, due_on = dates_of(assignment)
    form.title.data = "" if _title_is_default(assignment) else assignment.title
    form.activities.data = list(assignment.activities)
    form.facets.data = sorted(f.value for f in scope.facets)
    form.area.data = scope.area
    form.states.data = ", ".join(sorted(scope.states))
    form.amount.data = assignment.amount
    form.quantity.data = assignment.quantity
    if assignment.target is not None:
        form.target.data = round(assignment.target * 100)
    form.starts_on.data = starts_on
    form.due_on.data = due_on
    form.test_on.data = assignment.test_on
    if assignment.test_target is not None:
        form.test_target.data = str(round(assignment.test_target * 100))
    form.who.data = "everyone" if assignment.everyone else "some"
    form.students.data = list(
        db.session.execute(
            select(AssignmentStudent.student_id).where(
                AssignmentStudent.assignment_id == assignment.id
            )
        ).scalars()
    )


def _save(form: AssignmentForm, assignment: Assignment) -> None:
    """The validated form's settings into the assignment and its list of students (not committed)."""
    amount = Amount(form.amount.data)
    quantity = form.quantity.data if amount is not Amount.RECALL else None
    target = form.target.data / 100 if amount is Amount.RECALL else None
    activities = form.chosen_activities()
    # The dates are read in the zone they were first chosen in, as the page shows them.
    starts_at, due_at = window(form.starts_on.data, form.due_on.data, assignment.time_zone)
    assignment.title = (form.title.data or "").strip() or default_title(
        form.scope, get_deck(), activities, amount, quantity, target
    )
    assignment.activities = [a.slug for a in activities]
    assignment.scope = form.scope.to_json()
    assignment.amount = amount.value
    assignment.quantity = quantity
    assignment.target = target
    assignment.starts_at = starts_at
    assignment.due_at = due_at
    assignment.everyone = form.who.data != "some"
    assignment.test_on = form.test_on.data
    assignment.test_target = form.test_target_value()
    db.session.execute(
        delete(AssignmentStudent).where(AssignmentStudent.assignment_id == assignment.id)
    )
    if not assignment.everyone:
        # Only students of this class can be chosen (the form's choices).
        db.session.add_all(
            AssignmentStudent(assignment_id=assignment.id, student_id=sid) for sid in form.chosen
        )
    db.session.flush()
    # A test day set, moved or kept over a new scope: the facts already scheduled past it come in (P-M9).
    aim_now(assignment)


def _page(
    klass: SchoolClass,
    assignment: Assignment,
    form: AssignmentForm,
    students: list[ClassStudent],
    status: int,
    preview: object = None,
    message: str = "Choose a test day to see the daily work it would cost.",
) -> tuple[str, int]:
    return render_template(
        "teach/assignment_new.html",
        klass=klass,
        form=form,
        has_students=bool(students),
        preview=preview,
        message=message,
        editing=assignment,
    ), status


@bp.route("/classes/<int:class_id>/assignments/<int:assignment_id>/edit", methods=["GET", "POST"])
@teacher_required
def edit_assignment(class_id: int, assignment_id: int) -> Response | tuple[str, int]:
    """Change an assignment: the new-assignment form, filled in. Bad input changes nothing."""
    klass = own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    students = students_of(klass)
    form = _assignment_form(klass, students)
    # Its own dates and test day may have passed: kept as they are, they are not refused.
    form.kept_due = dates_of(assignment)[1]
    form.kept_test_on = assignment.test_on
    if not form.is_submitted():
        _fill(form, assignment)
        return _page(klass, assignment, form, students, 200)
    if "preview" in request.form:
        # "Preview" (without script): the work for the test day typed; nothing is saved.
        form.validate()
        preview, message = _form_preview(form, students)
        return _page(klass, assignment, form, students, 200, preview, message)
    if not form.validate_on_submit():
        return _page(klass, assignment, form, students, 400)
    _save(form, assignment)
    db.session.commit()
    flash(f"Assignment “{assignment.title}” saved.", "success")
    return redirect(
        url_for("teach.assignment_page", class_id=klass.id, assignment_id=assignment.id)
    )
