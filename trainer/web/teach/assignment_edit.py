"""Editing an assignment (issue #24): the new-assignment form, filled in; saving changes its title,
activities, scope, amount or goal, dates, test day and students. Progress is never stored (it is
read from the log and the round records), so it simply follows the new settings."""

from __future__ import annotations

from flask import flash, redirect, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from trainer.assignments import Amount, default_title

from .. import get_deck
from ..extensions import db
from ..models import Assignment, AssignmentStudent
from ..progress import activities_of, dates_of, scope_of
from ..security import teacher_required
from .assignments import _assignment_form, _form_preview, _own_assignment, form_page, save_form
from .forms import AssignmentForm
from .routes import bp, own_class, students_of


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
        return form_page(klass, form, students, 200, editing=assignment)
    if "preview" in request.form:
        # "Preview" (without script): the work for the test day typed; nothing is saved.
        form.validate()
        preview, message = _form_preview(form, students)
        return form_page(klass, form, students, 200, preview, message, editing=assignment)
    if not form.validate_on_submit():
        return form_page(klass, form, students, 400, editing=assignment)
    save_form(form, assignment)
    db.session.commit()
    flash(f"Assignment “{assignment.title}” saved.", "success")
    return redirect(
        url_for("teach.assignment_page", class_id=klass.id, assignment_id=assignment.id)
    )
