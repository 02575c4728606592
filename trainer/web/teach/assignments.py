"""Assignments: a teacher sets practice for a class and follows it; progress is read, never stored."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from sqlalchemy import delete, select
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from trainer.assignments import (
    Amount,
    Status,
    default_title,
    test_day_sentence,
    window,
)

from .. import get_deck
from ..assign.aims import Preview, aim_now, aimed_target, class_preview
from ..assign.forms import TestDayForm
from ..extensions import db
from ..models import Assignment, AssignmentStudent, SchoolClass, utcnow
from ..progress import (
    activities_of,
    assigned_students,
    class_assignments,
    dates_of,
    describe,
    goal_facts,
    progress,
)
from ..security import teacher_required
from ..spreadsheet import xlsx_response
from ..text import csv_line
from .forms import AssignmentForm, ConfirmForm
from .insights import CSV_BOM
from .routes import ClassStudent, _file_slug, bp, own_class, students_of, teacher_zone


def teacher_today() -> tuple[dt.date, str]:
    """Today in the teacher's time zone, and the zone's name (assignment dates are read in it)."""
    zone = teacher_zone()
    return utcnow().astimezone(zone).date(), zone.key


def _own_assignment(klass: SchoolClass, assignment_id: int) -> Assignment:
    assignment = db.session.execute(
        select(Assignment).where(Assignment.id == assignment_id, Assignment.class_id == klass.id)
    ).scalar_one_or_none()
    if assignment is None:
        abort(404)
    return assignment


def _form_preview(form: AssignmentForm, students: list[ClassStudent]) -> tuple[Preview | None, str]:
    """The daily work the new assignment's test day would cost (P-M11), or why there is none yet.
    ``form`` has been validated (its scope parsed); nothing is saved."""
    if form.test_on.data is None or form.test_on.errors:
        return None, "Choose a test day to see the daily work it would cost."
    activities = form.chosen_activities()
    if (
        not activities
        or form.activities.errors
        or form.facets.errors
        or form.states.errors
        or form.area.errors
    ):
        return None, "Choose the activities and what to practise to see the daily work."
    keys = [fact.key for fact in form.scope.facts(get_deck(), activities)]
    if not keys:
        return None, "Nothing is left to practise in that scope."
    ids = [s.id for s in students]
    if form.who.data == "some":
        chosen = set(form.students.data or [])
        ids = [sid for sid in ids if sid in chosen]
    if not ids:
        return (
            None,
            "There are no students to preview the work for: the work shows once students are chosen or join.",
        )
    return class_preview(ids, keys, form.test_on.data), ""


def _assignment_form(
    klass: SchoolClass, students: list[ClassStudent], **kwargs: object
) -> AssignmentForm:
    today, _zone = teacher_today()
    return AssignmentForm(
        get_deck(),
        [SelectChoice(s.id, s.username) for s in students],
        today,
        data={"starts_on": today, "due_on": today + dt.timedelta(days=7), "quantity": 5},
        **kwargs,
    )


@bp.get("/classes/<int:class_id>/assignments/preview")
@teacher_required
def assignment_preview(class_id: int) -> str:
    """The daily work a new assignment's test day would cost: the form's preview, as a fragment
    (the page's script asks for it when the test day changes; without script, "Preview" posts the form)."""
    klass = own_class(class_id)
    students = students_of(klass)
    form = _assignment_form(klass, students, formdata=request.args, meta={"csrf": False})
    form.validate()
    preview, message = _form_preview(form, students)
    return render_template("teach/_test_preview.html", preview=preview, message=message)


@bp.route("/classes/<int:class_id>/assignments/new", methods=["GET", "POST"])
@teacher_required
def new_assignment(class_id: int) -> str | Response | tuple[str, int]:
    """Set practice for the class or some of its students."""
    klass = own_class(class_id)
    students = students_of(klass)
    today, zone = teacher_today()
    form = _assignment_form(klass, students)
    preview, message = None, "Choose a test day to see the daily work it would cost."
    if form.is_submitted() and "preview" in request.form:
        # "Preview" (without script): the work for the test day typed; nothing is saved.
        form.validate()
        preview, message = _form_preview(form, students)
        return form_page(klass, form, students, 200, preview, message)
    if form.validate_on_submit():
        assignment = Assignment(class_id=klass.id, time_zone=zone)
        save_form(form, assignment)
        db.session.commit()
        flash(f"Assignment “{assignment.title}” set.", "success")
        return redirect(
            url_for("teach.assignment_page", class_id=klass.id, assignment_id=assignment.id)
        )
    return form_page(klass, form, students, 400 if form.is_submitted() else 200, preview, message)


def save_form(form: AssignmentForm, assignment: Assignment) -> None:
    """The validated form's settings into ``assignment`` (new, or one being edited) and its list of
    students, then aimed (not committed). A title left empty is built from the scope and goal."""
    amount = Amount(form.amount.data)
    quantity = form.quantity.data if amount is not Amount.RECALL else None
    target = form.target.data / 100 if amount is Amount.RECALL else None
    activities = form.chosen_activities()
    # The dates are read in the zone the assignment was first set in, as the page shows them.
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
    db.session.add(assignment)
    db.session.flush()
    db.session.execute(
        delete(AssignmentStudent).where(AssignmentStudent.assignment_id == assignment.id)
    )
    if not assignment.everyone:
        # Only students of this class can be chosen (the form's choices); one transaction.
        db.session.add_all(
            AssignmentStudent(assignment_id=assignment.id, student_id=sid) for sid in form.chosen
        )
    db.session.flush()
    # A test day set, moved or kept over a new scope: the facts already scheduled past it come in (P-M9).
    aim_now(assignment)


def form_page(
    klass: SchoolClass,
    form: AssignmentForm,
    students: list[Any],
    status: int,
    preview: object = None,
    message: str = "Choose a test day to see the daily work it would cost.",
    editing: Assignment | None = None,
) -> tuple[str, int]:
    """The assignment form's page: a new assignment, or ``editing`` one."""
    return render_template(
        "teach/assignment_new.html",
        klass=klass,
        form=form,
        has_students=bool(students),
        preview=preview,
        message=message,
        editing=editing,
    ), status


def _test_day_form(assignment: Assignment, **kwargs: object) -> TestDayForm:
    today, _zone = teacher_today()
    target = str(round(aimed_target(assignment) * 100))
    return TestDayForm(
        dates_of(assignment)[0],
        today,
        data={"test_on": assignment.test_on, "test_target": target},
        **kwargs,
    )


def _assignment_preview(
    klass: SchoolClass, assignment: Assignment, test_on: dt.date | None
) -> tuple[Preview | None, str]:
    """The daily work a test day on ``test_on`` costs the assignment's students (P-M11)."""
    if test_on is None:
        return None, "Choose a test day to see the daily work it would cost."
    students = {s.id for s in students_of(klass)}
    ids = [sid for sid in assigned_students(assignment) if sid in students]
    if not ids:
        return (
            None,
            "There are no students to preview the work for: the work shows once students join.",
        )
    return class_preview(ids, goal_facts(assignment), test_on), ""


def _assignment_page(
    klass: SchoolClass,
    assignment: Assignment,
    test_form: TestDayForm,
    preview: Preview | None,
    message: str,
    status: int = 200,
) -> tuple[str, int]:
    students = {s.id: s for s in students_of(klass)}
    ids = [sid for sid in assigned_students(assignment) if sid in students]
    now = utcnow()
    found = progress(assignment, ids, now)
    rows = sorted(
        ((students[sid], found[sid]) for sid in ids), key=lambda r: r[0].username.casefold()
    )
    counts = {status: sum(1 for _, p in rows if p.status is status) for status in Status}
    today, _zone = teacher_today()
    sentence = ""
    if assignment.test_on is not None:
        sentence = test_day_sentence(
            assignment.test_on, round(aimed_target(assignment) * 100), you=False
        )
    return render_template(
        "teach/assignment.html",
        klass=klass,
        assignment=assignment,
        rows=rows,
        counts=counts,
        describe=describe(assignment),
        confirm=ConfirmForm(),
        Status=Status,
        test_form=test_form,
        test_sentence=sentence,
        test_past=assignment.test_on is not None and assignment.test_on < today,
        is_goal=assignment.amount == Amount.RECALL.value,
        preview=preview,
        message=message,
    ), status


@bp.get("/classes/<int:class_id>/assignments/<int:assignment_id>")
@teacher_required
def assignment_page(class_id: int, assignment_id: int) -> tuple[str, int]:
    """One assignment: what it asks, its test day and the daily work it costs, and each student's progress."""
    klass = own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    today, _zone = teacher_today()
    test_on = (
        assignment.test_on
        if assignment.test_on is not None and assignment.test_on >= today
        else None
    )
    preview, message = _assignment_preview(klass, assignment, test_on)
    return _assignment_page(klass, assignment, _test_day_form(assignment), preview, message)


@bp.get("/classes/<int:class_id>/assignments/<int:assignment_id>/preview")
@teacher_required
def assignment_test_preview(class_id: int, assignment_id: int) -> str:
    """The daily work a test day would cost this assignment's students, as a fragment (the page's
    script asks for it when the test day changes)."""
    klass = own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    form = _test_day_form(assignment, formdata=request.args, meta={"csrf": False})
    if not form.validate():
        return render_template(
            "teach/_test_preview.html",
            preview=None,
            message=" ".join(form.test_on.errors) or "Choose a test day.",
        )
    preview, message = _assignment_preview(klass, assignment, form.test_on.data)
    return render_template("teach/_test_preview.html", preview=preview, message=message)


@bp.post("/classes/<int:class_id>/assignments/<int:assignment_id>/test-day")
@teacher_required
def assignment_test_day(class_id: int, assignment_id: int) -> Response | tuple[str, int]:
    """Set, change or clear the assignment's test day (P-A5); "Preview" shows its work and saves nothing."""
    klass = own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    form = _test_day_form(assignment)
    valid = form.validate_on_submit()
    if "preview" in request.form:
        preview, message = (
            _assignment_preview(klass, assignment, form.test_on.data) if valid else (None, "")
        )
        return _assignment_page(klass, assignment, form, preview, message, 200 if valid else 400)
    if not valid:
        return _assignment_page(klass, assignment, form, None, "", 400)
    assignment.test_on = form.test_on.data
    assignment.test_target = (
        None
        if form.test_on.data is None or assignment.amount == Amount.RECALL.value
        else form.percent()
    )
    aim_now(assignment)
    db.session.commit()
    if assignment.test_on is None:
        flash("The test day was taken away: the schedule no longer aims at one.", "success")
    else:
        flash(
            test_day_sentence(assignment.test_on, round(aimed_target(assignment) * 100), you=False),
            "success",
        )
    return redirect(
        url_for("teach.assignment_page", class_id=klass.id, assignment_id=assignment.id)
    )


@bp.route("/classes/<int:class_id>/assignments/<int:assignment_id>/delete", methods=["GET", "POST"])
@teacher_required
def delete_assignment(class_id: int, assignment_id: int) -> str | Response:
    """Take the assignment away, after a page asking first (what will be lost); what the students
    practised stays in their history. A POST without the page's "confirmed" only asks."""
    klass = own_class(class_id)
    assignment = _own_assignment(klass, assignment_id)
    if request.method == "GET":
        students = {s.id for s in students_of(klass)}
        ids = [sid for sid in assigned_students(assignment) if sid in students]
        found = progress(assignment, ids, utcnow())
        started = sum(1 for p in found.values() if p.done > 0 or p.status.finished)
        return render_template(
            "teach/assignment_delete.html",
            klass=klass,
            assignment=assignment,
            assigned=len(ids),
            started=started,
        )
    if not ConfirmForm().validate_on_submit():
        abort(400)
    if request.form.get("confirmed") != "yes":
        return redirect(
            url_for("teach.delete_assignment", class_id=klass.id, assignment_id=assignment.id)
        )
    title = assignment.title
    db.session.execute(delete(Assignment).where(Assignment.id == assignment.id))
    db.session.commit()
    flash(
        f"Assignment “{title}” deleted. What the students practised stays in their history.",
        "success",
    )
    return redirect(url_for("teach.class_page", class_id=klass.id))


#: The progress download's columns.
PROGRESS_HEADER = (
    "student",
    "name",  # the real name only the class's teacher sees (issue 24)
    "assignment",
    "activities",
    "starts",
    "due",
    "status",
    "done",
    "needed",
    "late",
    "completed_at",
)


# The CSV rule registered first: url_for without a kind builds it.
@bp.get("/classes/<int:class_id>/progress.xlsx", defaults={"kind": "xlsx"})
@bp.get("/classes/<int:class_id>/progress.csv", defaults={"kind": "csv"})
@teacher_required
def export_progress(class_id: int, kind: str) -> Response:
    """The class's progress: one row per student and assignment, as CSV or an Excel workbook."""
    klass = own_class(class_id)
    students = {s.id: s for s in students_of(klass)}
    now = utcnow()
    rows: list[list[object]] = []
    for assignment in reversed(class_assignments(klass)):
        ids = [sid for sid in assigned_students(assignment) if sid in students]
        found = progress(assignment, ids, now)
        starts_on, due_on = dates_of(assignment)
        for sid in sorted(ids, key=lambda i: students[i].username.casefold()):
            p = found[sid]
            cells: list[object] = [
                students[sid].username,
                students[sid].display_name or "",
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
            rows.append(cells)
    # Named as the answers file is: "<class>-progress-<the teacher's today>.csv".
    stem = f"{_file_slug(klass.name)}-progress-{teacher_today()[0].isoformat()}"
    if kind == "xlsx":
        return xlsx_response(f"{stem}.xlsx", "Progress", PROGRESS_HEADER, rows)
    # Every cell through the one CSV guard (P-H11): titles are typed by teachers. A byte-order
    # mark first, as the answers file: Excel then reads accented names right.
    lines = [CSV_BOM + csv_line(PROGRESS_HEADER), *(csv_line(cells) for cells in rows)]
    filename = f"{stem}.csv"
    return Response(
        "".join(lines),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )
