"""Views for teachers (classes, join codes, class settings, student accounts) and for joining a class.

Every query of a teacher's data is filtered by that teacher: a class or a student that is not
theirs is "not found" (404), whatever the id in the URL or form.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
import unicodedata
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    stream_with_context,
    url_for,
)
from flask_login import current_user
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from trainer import daily, srs
from trainer.facts import Facet

from .. import fitting, get_deck
from ..extensions import db, limiter
from ..memory import browser_time_zone, valid_time_zone
from ..models import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    ClassMembership,
    Role,
    SchoolClass,
    User,
    utcnow,
)
from ..progress import class_progress, dates_of
from ..security import login_required, student_required, teacher_required
from ..spreadsheet import xlsx_response
from . import insights
from .accounts import hash_passwords, make_password, normalise_code, reset_refusal, usernames_for
from .forms import (
    ClassSettingsForm,
    ConfirmForm,
    DisplayNameForm,
    JoinForm,
    JoiningForm,
    NewClassForm,
    NewStudentsForm,
)
from .names import shown_name

bp = Blueprint("teach", __name__, url_prefix="/teach")
# The one way a teacher's page names a student: "Maria García (maria.g2)" (issue 24).
bp.add_app_template_global(shown_name, "student_name")

#: Unused "create accounts" forms a session remembers (one per open tab, say).
_BATCHES_KEPT = 5
_BATCHES = "teach_batches"


def _user() -> User:
    return current_user._get_current_object()


def own_class(class_id: int) -> SchoolClass:
    """The current teacher's class ``class_id``; any other class is not found."""
    klass = db.session.execute(
        select(SchoolClass).where(SchoolClass.id == class_id, SchoolClass.teacher_id == _user().id)
    ).scalar_one_or_none()
    if klass is None:
        abort(404)
    return klass


def _class_student(klass: SchoolClass, student_id: int) -> tuple[User, ClassMembership]:
    """A student of ``klass`` and their membership; anyone else is not found."""
    row = db.session.execute(
        select(User, ClassMembership)
        .join(ClassMembership, ClassMembership.student_id == User.id)
        .where(ClassMembership.class_id == klass.id, User.id == student_id)
    ).first()
    if row is None:
        abort(404)
    return row[0], row[1]


def _new_join_code() -> str:
    """A join code no class has (8 characters from 31: a clash is rare, and then another is drawn)."""
    while True:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if (
            db.session.execute(select(SchoolClass.id).where(SchoolClass.join_code == code)).first()
            is None
        ):
            return code


def _no_store(html: str, status: int = 200) -> Response:
    """A page with a password on it: never kept by the browser or a proxy."""
    response = current_app.make_response((html, status))
    response.headers["Cache-Control"] = "no-store"
    return response


# --- Teachers: classes -------------------------------------------------------------------------


@bp.route("/", methods=["GET", "POST"])
@teacher_required
def index() -> str | Response | tuple[str, int]:
    """The teacher's classes, and a form to create one."""
    teacher = _user()
    form = NewClassForm(teacher.id)
    if form.validate_on_submit():
        klass = SchoolClass(teacher_id=teacher.id, name=form.name.data, join_code=_new_join_code())
        db.session.add(klass)
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            form.name.errors = [
                f"You already have a class called “{form.name.data}”. Choose another name."
            ]
        else:
            flash(
                f"Class “{klass.name}” created. Give your students the code {klass.join_code}, or add their accounts.",
                "success",
            )
            return redirect(url_for("teach.class_page", class_id=klass.id))
    counts = (
        select(ClassMembership.class_id, func.count(ClassMembership.id).label("students"))
        .group_by(ClassMembership.class_id)
        .subquery()
    )
    classes = db.session.execute(
        select(SchoolClass, func.coalesce(counts.c.students, 0))
        .outerjoin(counts, counts.c.class_id == SchoolClass.id)
        .where(SchoolClass.teacher_id == teacher.id)
        .order_by(SchoolClass.name)
    ).all()
    return render_template("teach/index.html", form=form, classes=classes), (
        400 if form.is_submitted() else 200
    )


@dataclass(frozen=True)
class ClassStudent:
    id: int
    username: str
    joined_at: dt.datetime
    #: The real name the class's teacher gave them (issue 24), for that teacher's pages only.
    display_name: str | None = None


def students_of(klass: SchoolClass) -> list[ClassStudent]:
    """The class's students, with the real names its teacher gave them: for that teacher only."""
    rows = db.session.execute(
        select(User.id, User.username, ClassMembership.joined_at, ClassMembership.display_name)
        .join(ClassMembership, ClassMembership.student_id == User.id)
        .where(ClassMembership.class_id == klass.id)
        .order_by(User.username_key)
    ).all()
    return [ClassStudent(row.id, row.username, row.joined_at, row.display_name) for row in rows]


@bp.get("/classes/<int:class_id>")
@teacher_required
def class_page(class_id: int) -> str:
    """A class: its students, its join code and link, and what the teacher can change."""
    klass = own_class(class_id)
    students = students_of(klass)
    assignments, progress_table = class_progress(klass, [s.id for s in students])
    return render_template(
        "teach/class.html",
        klass=klass,
        students=students,
        join_url=url_for("teach.join_link", code=klass.join_code, _external=True),
        confirm=ConfirmForm(),
        assignments=assignments,
        progress_table=progress_table,
        due_dates={a.id: dates_of(a)[1] for a in assignments},
        **_class_insights(klass, students),
    )


@bp.post("/classes/<int:class_id>/joining")
@teacher_required
def joining(class_id: int) -> Response:
    """Close joining (the code stops working) or open it again."""
    klass = own_class(class_id)
    form = JoiningForm()
    if not form.validate_on_submit():
        abort(400)
    klass.joining_open = form.joining.data == "open"
    db.session.commit()
    if klass.joining_open:
        flash(f"Joining is open: students can join with the code {klass.join_code}.", "success")
    else:
        flash(
            "Joining is closed: the code no longer lets anyone in. Students already in the class stay.",
            "success",
        )
    return redirect(url_for("teach.class_page", class_id=klass.id))


@bp.post("/classes/<int:class_id>/code")
@teacher_required
def new_code(class_id: int) -> Response:
    """Give the class a new join code; the old one stops working."""
    klass = own_class(class_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    klass.join_code = _new_join_code()
    db.session.commit()
    flash(f"The new code is {klass.join_code}. The old code and link no longer work.", "success")
    return redirect(url_for("teach.class_page", class_id=klass.id))


@bp.route("/classes/<int:class_id>/settings", methods=["GET", "POST"])
@teacher_required
def class_settings(class_id: int) -> str | Response | tuple[str, int]:
    """The class's name, and the study settings it sets for its students (ruling P-S1)."""
    klass = own_class(class_id)
    form = ClassSettingsForm(
        klass.teacher_id,
        klass.id,
        data={
            "name": klass.name,
            "desired_retention": None
            if klass.desired_retention is None
            else round(klass.desired_retention * 100),
            "new_per_day": klass.new_per_day,
            "daily_amount": klass.daily_amount,
            "daily_unit": klass.daily_unit or daily.Unit.ANSWERS.value,
        },
    )
    if form.validate_on_submit():
        klass.name = form.name.data
        klass.desired_retention = (
            None
            if form.desired_retention.data is None
            else float(form.desired_retention.data) / 100
        )
        klass.new_per_day = form.new_per_day.data
        # Both halves of the daily amount, or neither (P-D2).
        klass.daily_amount = form.daily_amount.data
        klass.daily_unit = None if form.daily_amount.data is None else form.daily_unit.data
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            form.name.errors = [
                f"You already have a class called “{form.name.data}”. Choose another name."
            ]
        else:
            flash("Class settings saved.", "success")
            return redirect(url_for("teach.class_page", class_id=klass.id))
    return render_template(
        "teach/settings.html", klass=klass, form=form, seconds_per_answer=daily.SECONDS_PER_ANSWER
    ), (400 if form.is_submitted() else 200)


# --- Teachers: student accounts ------------------------------------------------------------------


def _new_batch() -> str:
    token = secrets.token_urlsafe(16)
    batches = [token, *session.get(_BATCHES, [])][:_BATCHES_KEPT]
    session[_BATCHES] = batches
    return token


def _use_batch(token: str | None) -> bool:
    """True, once, for a token handed out with the form; False for a list sent a second time."""
    batches = session.get(_BATCHES, [])
    if not token or token not in batches:
        return False
    session[_BATCHES] = [b for b in batches if b != token]
    return True


@dataclass(frozen=True)
class Slip:
    name: str
    username: str
    password: str


def _taken_usernames(base: str) -> set[str]:
    rows = db.session.execute(
        select(User.username_key).where(User.username_key.startswith(base, autoescape=True))
    )
    return set(rows.scalars())


@bp.route("/classes/<int:class_id>/students/new", methods=["GET", "POST"])
@teacher_required
def new_students(class_id: int) -> str | Response | tuple[str, int]:
    """Make accounts for a pasted list of names, all or none, then show their login slips once."""
    klass = own_class(class_id)
    form = NewStudentsForm()
    if form.validate_on_submit():
        if not _use_batch(form.batch.data):
            flash(
                "Those accounts were already made: they are in the list below. "
                "To give a student a new password, open their name.",
                "info",
            )
            return redirect(url_for("teach.class_page", class_id=klass.id))
        usernames = usernames_for(form.parsed, _taken_usernames)
        slips = [
            Slip(entry.name, username, make_password())
            for entry, username in zip(form.parsed, usernames, strict=True)
        ]
        # Made by this teacher: only they may give these accounts a new password later.
        students = [
            User(
                username=slip.username,
                username_key=User.key_for(slip.username),
                role=Role.STUDENT,
                password_hash=hashed,
                managed_by_id=_user().id,
            )
            for slip, hashed in zip(
                slips, hash_passwords([slip.password for slip in slips]), strict=True
            )
        ]
        now = utcnow()
        try:
            db.session.add_all(students)
            db.session.flush()
            db.session.add_all(
                [
                    # The typed name is kept as the student's real name in this class, which
                    # only its teacher sees (issue 24).
                    ClassMembership(
                        class_id=klass.id,
                        student_id=student.id,
                        joined_at=now,
                        display_name=slip.name or None,
                    )
                    for student, slip in zip(students, slips, strict=True)
                ]
            )
            db.session.commit()
        except IntegrityError:
            # Someone signed up with one of these usernames a moment ago: nothing is kept.
            db.session.rollback()
            form.names.errors = [
                "Someone took one of these usernames just now. Nothing was created; please press the button again."
            ]
            form.batch.data = _new_batch()
        else:
            html = render_template("teach/slips.html", klass=klass, slips=slips)
            return _no_store(html)
    elif not form.is_submitted():
        form.batch.data = _new_batch()
    status = 400 if form.is_submitted() else 200
    return render_template("teach/new_students.html", klass=klass, form=form), status


@bp.get("/classes/<int:class_id>/students/<int:student_id>")
@teacher_required
def student_page(class_id: int, student_id: int) -> str:
    """One student of the class: their progress, their real name, a new password, or taking them
    out of the class."""
    klass = own_class(class_id)
    student, membership = _class_student(klass, student_id)
    return _student_html(klass, student, membership)


def _student_html(
    klass: SchoolClass,
    student: User,
    membership: ClassMembership,
    name_form: DisplayNameForm | None = None,
) -> str:
    assignments, progress_table = class_progress(klass, [student.id])
    return render_template(
        "teach/student.html",
        klass=klass,
        student=student,
        membership=membership,
        confirm=ConfirmForm(),
        name_form=name_form or DisplayNameForm(data={"display_name": membership.display_name}),
        password_refusal=reset_refusal(student, _user().id),
        assignments=assignments,
        progress_table=progress_table,
        **_student_progress(klass, student),
    )


@bp.post("/classes/<int:class_id>/students/<int:student_id>/name")
@teacher_required
def display_name(class_id: int, student_id: int) -> Response | tuple[str, int]:
    """Give the student a real name in this class, change it, or clear it (empty). Only the class's
    teacher ever sees it (issue 24); a name that cannot be kept is explained and changes nothing."""
    klass = own_class(class_id)
    student, membership = _class_student(klass, student_id)
    form = DisplayNameForm()
    if not form.validate_on_submit():
        return _student_html(klass, student, membership, name_form=form), 400
    name = (form.display_name.data or "").strip() or None  # only spaces: no name
    membership.display_name = name
    db.session.commit()
    if name:
        flash(f"{student.username} is shown as {shown_name(student.username, name)}.", "success")
    else:
        flash(f"{student.username} has no real name in {klass.name} now.", "success")
    return redirect(url_for("teach.student_page", class_id=klass.id, student_id=student.id))


@bp.post("/classes/<int:class_id>/students/<int:student_id>/password")
@teacher_required
def reset_password(class_id: int, student_id: int) -> Response | tuple[str, int]:
    """Give the student a new password and show it once (the old one, and every device logged in
    with it, stop working).

    Only for an account this teacher made from a list of names: a student who made their own
    account keeps it, whatever class they join (else anyone calling themselves a teacher could
    take over a student's account with a join code).
    """
    klass = own_class(class_id)
    student, membership = _class_student(klass, student_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    refusal = reset_refusal(student, _user().id)
    if refusal:
        return render_template(
            "errors/error.html", status=403, title="Not allowed", message=refusal
        ), 403
    password = make_password()
    student.set_password(password)
    db.session.commit()
    html = render_template(
        "teach/password.html",
        klass=klass,
        slip=Slip(membership.display_name or "", student.username, password),
        student=student,
    )
    return _no_store(html)


@bp.post("/classes/<int:class_id>/students/<int:student_id>/remove")
@teacher_required
def remove_student(class_id: int, student_id: int) -> Response:
    """Take the student out of the class; their account and learning history stay theirs."""
    klass = own_class(class_id)
    student, membership = _class_student(klass, student_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    from .undo import remember_removal, take_out  # (undo.py imports this module)

    token = take_out(klass, membership)
    db.session.commit()
    remember_removal(token)
    flash(
        f"{student.username} is no longer in {klass.name}. Their account and what they have learned are kept.",
        "success",
    )
    # The "Removed" page offers to undo it for a while.
    return redirect(url_for("teach.removed", class_id=klass.id))


# --- Students: joining a class -------------------------------------------------------------------


def _failed(response: Response) -> bool:
    return response.status_code != 302


def _join_key() -> str:
    # The account, not the login session (get_id() is a session's token): logging in again
    # does not start the count over.
    return f"join:{current_user.id}"


@dataclass(frozen=True)
class MyClass:
    id: int
    name: str
    teacher: str
    joined_at: dt.datetime
    desired_retention: float | None
    new_per_day: int | None


def _my_classes(student: User, class_id: int | None = None) -> list[MyClass]:
    """The student's classes with each one's teacher (who can see the student's work), or only
    ``class_id`` among them."""
    query = (
        select(
            SchoolClass.id,
            SchoolClass.name,
            User.username,
            ClassMembership.joined_at,
            SchoolClass.desired_retention,
            SchoolClass.new_per_day,
        )
        .join(ClassMembership, ClassMembership.class_id == SchoolClass.id)
        .join(User, User.id == SchoolClass.teacher_id)
        .where(ClassMembership.student_id == student.id)
        .order_by(ClassMembership.joined_at, SchoolClass.id)
    )
    if class_id is not None:
        query = query.where(SchoolClass.id == class_id)
    return [MyClass(*row) for row in db.session.execute(query).all()]


@bp.route("/my-classes/<int:class_id>/leave", methods=["GET", "POST"])
@student_required
def leave_class(class_id: int) -> str | Response:
    """Leave one of one's classes (after a confirmation page): its teacher no longer sees one's work.

    Only the membership goes; the student's account and history stay theirs (as P-S4). A class
    the student is not in is not found.
    """
    student = _user()
    mine = _my_classes(student, class_id)
    if not mine:
        abort(404)
    klass = mine[0]
    form = ConfirmForm()
    if form.is_submitted():
        if not form.validate():
            abort(400)
        db.session.execute(
            delete(ClassMembership).where(
                ClassMembership.class_id == klass.id, ClassMembership.student_id == student.id
            )
        )
        db.session.commit()
        flash(
            f"You left {klass.name}. {klass.teacher} no longer sees your work; everything you learned stays yours.",
            "success",
        )
        return redirect(url_for("teach.join"))
    return render_template("teach/leave.html", klass=klass, form=form)


def _class_by_code(code: str) -> tuple[SchoolClass, str] | None:
    row = db.session.execute(
        select(SchoolClass, User.username)
        .join(User, User.id == SchoolClass.teacher_id)
        .where(SchoolClass.join_code == code)
    ).first()
    return (row[0], row[1]) if row else None


def _is_member(klass: SchoolClass, student: User) -> bool:
    return (
        db.session.execute(
            select(ClassMembership.id).where(
                ClassMembership.class_id == klass.id, ClassMembership.student_id == student.id
            )
        ).first()
        is not None
    )


def _join(klass: SchoolClass, teacher_name: str, student: User) -> str | None:
    """Put ``student`` in ``klass``; the reason why not, or None when they joined."""
    if _is_member(klass, student):
        return f"You are already in {klass.name}."
    if not klass.joining_open:
        return f"{klass.name} is not taking new students. Ask your teacher."
    db.session.add(ClassMembership(class_id=klass.id, student_id=student.id))
    try:
        db.session.commit()
    except IntegrityError:
        # The same join sent twice at once: the first one counted.
        db.session.rollback()
        return f"You are already in {klass.name}."
    flash(f"You joined {klass.name} (teacher: {teacher_name}).", "success")
    return None


def unknown_code_message(code: str) -> str:
    return f"No class has the code {code}. Check it with your teacher."


@bp.route("/join", methods=["GET", "POST"])
@limiter.limit(
    lambda: current_app.config["JOIN_RATE_LIMIT"],
    methods=["POST"],
    key_func=_join_key,
    deduct_when=_failed,
)
@student_required
def join() -> str | Response | tuple[str, int]:
    """Type a class code to join the class; the student's classes are listed."""
    student = _user()
    form = JoinForm()
    if form.validate_on_submit():
        found = _class_by_code(form.code.data)
        if found is None:
            form.code.errors = [unknown_code_message(form.code.data)]
        else:
            problem = _join(*found, student)
            if problem is None:
                return redirect(url_for("teach.join"))
            form.code.errors = [problem]
    return render_template("teach/join.html", form=form, classes=_my_classes(student)), (
        400 if form.is_submitted() else 200
    )


@bp.route("/join/<code>", methods=["GET", "POST"])
# Opening an unknown link counts too, so links cannot be tried one after another either.
@limiter.limit(
    lambda: current_app.config["JOIN_RATE_LIMIT"],
    key_func=_join_key,
    deduct_when=lambda r: r.status_code not in (200, 302),
)
@login_required
def join_link(code: str) -> str | Response | tuple[str, int]:
    """A class's join link: the class and its teacher, and a button to join. Its teacher sees a
    preview of that page; any other teacher a note that only students join (whether the code is
    a class's or not: the page tells them nothing of another teacher's class)."""
    code = normalise_code(code)[:20]
    if _user().role == Role.TEACHER:
        return _join_link_for_teacher(code)
    student = _user()
    found = _class_by_code(code)
    if found is None:
        return render_template(
            "teach/join_link.html", code=code, klass=None, problem=unknown_code_message(code)
        ), 404
    klass, teacher_name = found
    form = ConfirmForm()
    problem = None
    if _is_member(klass, student):
        problem = f"You are already in {klass.name}."
    elif not klass.joining_open:
        problem = f"{klass.name} is not taking new students. Ask your teacher."
    status = 200
    if form.is_submitted():
        if not form.validate():
            abort(400)
        problem = _join(klass, teacher_name, student)
        if problem is None:
            return redirect(url_for("teach.join"))
        status = 400
    return render_template(
        "teach/join_link.html",
        code=klass.join_code,
        klass=klass,
        teacher_name=teacher_name,
        form=form,
        problem=problem,
    ), status


def _join_link_for_teacher(code: str) -> tuple[str, int]:
    """The join link as a teacher opens it: their own class's as a read-only preview of what a
    student sees; anyone else's (or an unknown code) as a note that only students join."""
    found = _class_by_code(code)
    status = 400 if request.method == "POST" else 200  # a teacher joins no class
    if found is None or found[0].teacher_id != _user().id:
        return render_template("teach/join_link.html", klass=None, teacher_view=True), status
    klass, teacher_name = found
    return render_template(
        "teach/join_link.html",
        code=klass.join_code,
        klass=klass,
        teacher_name=teacher_name,
        preview=True,
        problem=None
        if klass.joining_open
        else f"{klass.name} is not taking new students. Ask your teacher.",
    ), status


# --- Teachers: a student's progress and the review log export ---


def teacher_zone() -> ZoneInfo:
    """The teacher's own time zone (their setting, else their browser's, else UTC): "today" is theirs."""
    teacher = _user()
    return ZoneInfo(valid_time_zone(teacher.time_zone) or browser_time_zone() or "UTC")


def _class_insights(klass: SchoolClass, students: list[ClassStudent]) -> dict[str, object]:
    """What the class page shows beside its students: when each last practised, and who needs help
    (not said of a student who has not had the chance to practise yet, P-S5)."""
    now = utcnow()
    zone = teacher_zone()
    ids = [s.id for s in students]
    active = insights.last_active(ids)
    reasons = insights.needs_help(ids, now, active=active)
    settling = insights.settling_in(klass.id, ids, now)
    for sid in settling:
        reasons[sid] = []
    today = now.astimezone(zone).date()
    return {
        "settling": {
            sid: f"Too soon to tell (from {when.astimezone(zone):%a %d %b})"
            for sid, when in settling.items()
        },
        "nobody_practised": not any(active.values()),
        "last_active": active,
        "last_active_text": {
            sid: insights.last_active_text(when, now, zone) for sid, when in active.items()
        },
        "help_reasons": reasons,
        "helped": [s for s in students if reasons[s.id]],
        "export_start": today - dt.timedelta(days=29),
        "export_end": today,
    }


def _student_progress(klass: SchoolClass, student: User) -> dict[str, object]:
    """What the student page shows of a student's learning; as on the class page, no "needs help"
    before the student has had the chance to practise (P-S5), but the day it will be said from."""
    now = utcnow()
    zone = teacher_zone()
    settling = insights.settling_in(klass.id, [student.id], now).get(student.id)
    return {
        "zone": zone,
        "help": [] if settling else insights.needs_help([student.id], now)[student.id],
        "settling": None
        if settling is None
        else f"Too soon to tell (from {settling.astimezone(zone):%a %d %b})",
        "active": insights.last_active([student.id])[student.id],
        "activity": insights.student_activity(student.id, now),
        "facts": insights.facts_by_state(student.id, now),
        "facets": list(Facet),
        "rounds": insights.recent_rounds(student.id),
        "leech_lapses": srs.LEECH_LAPSES,
        "memory_model": fitting.model_sentence(student, for_teacher=True, now=now),
    }


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class ExportRangeError(ValueError):
    """The dates asked for cannot be exported; the message says why, for the teacher."""


def export_range(start: str | None, end: str | None) -> tuple[dt.date, dt.date]:
    """The first and last study day of an export, from the form's two dates (YYYY-MM-DD).

    Raises:
        ExportRangeError: a date is missing or not a date, the last day is before the first, or
            the range is longer than :data:`insights.MAX_EXPORT_DAYS`.
    """
    days = []
    for label, text in (("first", start), ("last", end)):
        text = (text or "").strip()
        if not text:
            raise ExportRangeError(f"Choose the {label} day of the answers to download.")
        try:
            if not _ISO_DATE.fullmatch(text):
                raise ValueError(text)
            days.append(dt.date.fromisoformat(text))
        except ValueError:
            raise ExportRangeError(
                f"The {label} day “{text[:20]}” is not a date; use the form (year-month-day)."
            ) from None
    first, last = days
    if last < first:
        raise ExportRangeError(
            f"The last day ({last.isoformat()}) is before the first day ({first.isoformat()})."
        )
    length = (last - first).days + 1
    if length > insights.MAX_EXPORT_DAYS:
        raise ExportRangeError(
            f"Download at most {insights.MAX_EXPORT_DAYS} days at a time; those dates cover {length} days."
        )
    return first, last


def _file_slug(name: str) -> str:
    """A class name in a download's file name: "Señora Peña 5º" -> "senora-pena-5o"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.casefold()).strip("-")
    return slug or "class"


# The CSV rule registered first: url_for without a kind builds it.
@bp.get("/classes/<int:class_id>/reviews.xlsx", defaults={"kind": "xlsx"})
@bp.get("/classes/<int:class_id>/reviews.csv", defaults={"kind": "csv"})
@teacher_required
def export_reviews(class_id: int, kind: str) -> Response:
    """Download the class's answers between two study days as a CSV file or an Excel workbook (one
    row per answer)."""
    klass = own_class(class_id)
    try:
        first, last = export_range(request.args.get("start"), request.args.get("end"))
    except ExportRangeError as problem:
        flash(f"{problem} Nothing was downloaded.", "error")
        return redirect(url_for("teach.class_page", class_id=klass.id) + "#export-title")
    rows = insights.review_log_rows(klass.id, first, last)
    stem = f"{_file_slug(klass.name)}-answers-{first.isoformat()}-to-{last.isoformat()}"
    if kind == "xlsx":
        return xlsx_response(
            f"{stem}.xlsx", "Answers", insights.CSV_HEADER, insights.export_rows(rows, get_deck())
        )
    body = stream_with_context(insights.csv_lines(rows, get_deck()))
    filename = f"{stem}.csv"
    response = current_app.response_class(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    # Students' answers: never kept by a shared computer's browser or a proxy.
    response.headers["Cache-Control"] = "no-store"
    return response
