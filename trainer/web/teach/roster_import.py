"""A teacher imports classes and students from their school's system (OneRoster CSV, issue 24).

Upload the files (or one .zip) -> a preview of what will happen to each class and student, with
the rows refused and why -> confirm -> one transaction makes the classes, the accounts (usernames
and passwords as the bulk accounts make them; the passwords shown once, as login slips) and the
memberships with the students' real names; names that changed in the school's system are updated.

The link to the school's system is the files' ``sourcedId``: ``SchoolClass.roster_id`` on the
teacher's class and ``User.roster_id`` on an account the teacher imported (``managed_by_id``). Both
are looked up only among the teacher's own classes and accounts, so importing the same files again
makes nothing twice, and another teacher's classes and students are never matched or touched.

The plan read from the files travels from the preview to the confirm as a token signed with the
app's secret (and the teacher's id inside): the browser cannot change what will be made.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, render_template, request
from flask_wtf import FlaskForm
from flask_wtf.file import MultipleFileField
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response
from wtforms import HiddenField, SubmitField

from trainer import roster

from ..extensions import db
from ..models import CLASS_NAME_MAX, ClassMembership, Role, SchoolClass, User, utcnow
from ..security import teacher_required
from ..text import UnsafeText, clean_name
from .accounts import (
    MAX_NAMES,
    StudentName,
    fold,
    hash_passwords,
    make_password,
    usernames_for,
)
from .routes import Slip, _new_join_code, _no_store, _taken_usernames, _user, bp
from .undo import remember_removal, take_out

#: A request to the upload page may carry the files (the site's other forms stay at 1 MB); the
#: files' own limit (``roster.MAX_BYTES``) is checked with a clear message, this one leaves room.
UPLOAD_REQUEST_MAX = roster.MAX_BYTES + 1024 * 1024
#: How long a preview may be confirmed.
PLAN_SECONDS = 60 * 60
_SALT = "teach.roster-import"
#: IN lists at most this long (SQLite's limit on parameters is far above; PostgreSQL has none).
_CHUNK = 500


class RosterUploadForm(FlaskForm):
    files = MultipleFileField(
        "Your school's OneRoster files",
        description=(
            "Choose users.csv, classes.csv and enrollments.csv (manifest.csv and orgs.csv too, if "
            "you have them), or one .zip file holding them. At most "
            f"{roster.MAX_BYTES // (1024 * 1024)} MB and {roster.MAX_ROWS:,} rows."
        ),
        render_kw={"accept": ".csv,.zip,text/csv,application/zip", "multiple": True},
    )
    submit = SubmitField("Preview the import")


class RosterConfirmForm(FlaskForm):
    plan = HiddenField()
    submit = SubmitField("Import")


@bp.url_value_preprocessor
def _roster_upload_size(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before the CSRF check reads the form: a larger body for the upload page only.
    if endpoint == "teach.roster_import" and request.method == "POST":
        request.max_content_length = UPLOAD_REQUEST_MAX


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt=_SALT)


def _plan_token(plan: roster.Plan, teacher_id: int) -> str:
    return _serializer().dumps(
        {
            "teacher": teacher_id,
            "classes": [
                [
                    c.sourced_id,
                    c.title,
                    [[s.sourced_id, s.given_name, s.family_name] for s in c.students],
                    sorted(c.teachers),
                ]
                for c in plan.classes
            ],
        }
    )


def _plan_from_token(token: str, teacher_id: int) -> roster.Plan | None:
    """The plan the preview showed, or None when the token is not ours, not this teacher's or old."""
    try:
        data = _serializer().loads(token, max_age=PLAN_SECONDS)
    except (BadSignature, SignatureExpired):
        return None
    if not isinstance(data, dict) or data.get("teacher") != teacher_id:
        return None
    return roster.Plan(
        classes=tuple(
            roster.RosterClass(
                sid, title, tuple(roster.RosterStudent(*s) for s in students), frozenset(teachers)
            )
            for sid, title, students, teachers in data["classes"]
        )
    )


# --- What the import would do, against the database -------------------------------------------------

NEW, JOINS, RENAMED, SAME, LEAVES = "new", "joins", "renamed", "same", "leaves"

#: A file of at most this many classes is taken as a teacher's own export: its classes start
#: ticked. A longer one (a whole school's) starts with only the teacher's own classes ticked.
OWN_EXPORT_CLASSES = 6


@dataclass
class StudentLine:
    student: roster.RosterStudent
    #: NEW: an account to make; JOINS: the teacher's imported account joins this class;
    #: RENAMED: in the class, name to update; SAME: in the class as it is.
    status: str
    account: User | None = None
    membership: ClassMembership | None = None


@dataclass
class ClassLine:
    source: roster.RosterClass
    #: The teacher's class with this sourcedId, or None (a class to make).
    klass: SchoolClass | None
    #: The name a new class gets (the title, made unique among the teacher's classes).
    name: str
    students: list[StudentLine] = field(default_factory=list)
    #: Students of the (matched) class who came from the school's system and are no longer
    #: enrolled in it by these files: offered to take out (P-S6).
    leaving: list[StudentLine] = field(default_factory=list)
    #: Whether the preview ticks it to start with (P-S6).
    ticked: bool = True

    def count(self, status: str) -> int:
        return sum(1 for line in self.students if line.status == status)


def _chunks(items: Sequence[str]) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _unique_name(title: str, taken: set[str]) -> str:
    base = title[:CLASS_NAME_MAX].strip() or "Imported class"
    name, n = base, 2
    while name.casefold() in taken:
        suffix = f" ({n})"
        name, n = base[: CLASS_NAME_MAX - len(suffix)].rstrip() + suffix, n + 1
    taken.add(name.casefold())
    return name


def _analyse(plan: roster.Plan, teacher_id: int) -> list[ClassLine]:
    """Each class of the plan against the teacher's classes and imported accounts (theirs only)."""
    class_ids = [c.sourced_id for c in plan.classes]
    classes: dict[str, SchoolClass] = {}
    for chunk in _chunks(class_ids):
        for found in db.session.execute(
            select(SchoolClass).where(
                SchoolClass.teacher_id == teacher_id, SchoolClass.roster_id.in_(chunk)
            )
        ).scalars():
            classes[found.roster_id or ""] = found
    student_ids = list(plan.students)
    accounts: dict[str, User] = {}
    for chunk in _chunks(student_ids):
        for user in db.session.execute(
            select(User).where(User.managed_by_id == teacher_id, User.roster_id.in_(chunk))
        ).scalars():
            accounts[user.roster_id or ""] = user
    memberships: dict[tuple[int, int], ClassMembership] = {}
    # Each matched class's members whose accounts this teacher imported from the school's system
    # (a student who joined with the class code, or was typed in, is never one).
    from_roster: dict[int, list[tuple[ClassMembership, User]]] = {}
    matched_ids = [k.id for k in classes.values()]
    if matched_ids:
        for row, member in db.session.execute(
            select(ClassMembership, User)
            .join(User, User.id == ClassMembership.student_id)
            .where(ClassMembership.class_id.in_(matched_ids))
            .order_by(ClassMembership.id)
        ).all():
            memberships[(row.class_id, row.student_id)] = row
            if member.roster_id is not None and member.managed_by_id == teacher_id:
                from_roster.setdefault(row.class_id, []).append((row, member))
    teacher = db.session.get(User, teacher_id)
    known_as = (
        {value.lower() for value in (teacher.username, teacher.email) if value}
        if teacher is not None
        else set()
    )
    named = {c.sourced_id for c in plan.classes if c.teachers & known_as}
    taken = {
        name.casefold()
        for name in db.session.execute(
            select(SchoolClass.name).where(SchoolClass.teacher_id == teacher_id)
        ).scalars()
    }
    lines = []
    for source in plan.classes:
        klass = classes.get(source.sourced_id)
        line = ClassLine(source, klass, klass.name if klass else _unique_name(source.title, taken))
        for student in source.students:
            account = accounts.get(student.sourced_id)
            membership = memberships.get((klass.id, account.id)) if klass and account else None
            if account is None:
                status = NEW
            elif membership is None:
                status = JOINS
            elif membership.display_name != student.name:
                status = RENAMED
            else:
                status = SAME
            line.students.append(StudentLine(student, status, account, membership))
        if klass is not None:
            enrolled = {student.sourced_id for student in source.students}
            line.leaving = [
                StudentLine(
                    roster.RosterStudent(member.roster_id or "", row.display_name or "", ""),
                    LEAVES,
                    member,
                    row,
                )
                for row, member in from_roster.get(klass.id, [])
                if member.roster_id not in enrolled
            ]
        # Ticked to start with: the teacher's classes already, those the files name them a
        # teacher of, or every class of a file as short as one teacher's own export (P-S6).
        line.ticked = (
            klass is not None
            or source.sourced_id in named
            or (not named and len(plan.classes) <= OWN_EXPORT_CLASSES)
        )
        lines.append(line)
    return lines


def _student_name(student: roster.RosterStudent) -> StudentName:
    """The name's parts a username is made from ("maria.g"), as the bulk accounts make them."""
    given = [part for part in student.given_name.split() if fold(part)]
    family = [part for part in student.family_name.split() if fold(part)]
    first = given[0] if given else (family[0] if family else "student")
    last = family[-1] if given and family else ""
    return StudentName(line=0, name=student.name, first=first, last=last)


# --- Views ------------------------------------------------------------------------------------------


def _preview(
    plan: roster.Plan,
    form: RosterConfirmForm,
    error: str | None = None,
    chosen: tuple[set[str], set[str]] | None = None,
) -> tuple[str, int]:
    """The preview of ``plan``; after a refused confirm, with the ticks the teacher had made
    (``chosen``: the classes, and the classes whose leavers go)."""
    lines = _analyse(plan, _user().id)
    db.session.rollback()  # nothing is changed by looking
    if chosen is not None:
        for line in lines:
            line.ticked = line.source.sourced_id in chosen[0]
    return render_template(
        "teach/roster_preview.html",
        plan=plan,
        lines=lines,
        form=form,
        error=error,
        leave=chosen[1] if chosen is not None else set(),
        whole_school=len(lines) > OWN_EXPORT_CLASSES,
        statuses={"new": NEW, "joins": JOINS, "renamed": RENAMED, "same": SAME},
    ), (400 if error else 200)


@bp.route("/import", methods=["GET", "POST"])
@teacher_required
def roster_import() -> str | tuple[str, int]:
    """Upload the school's OneRoster files; a good upload shows the preview."""
    form = RosterUploadForm()
    errors: list[str] = []
    if form.validate_on_submit():
        uploads = [
            (storage.filename or "", storage.read())
            for storage in request.files.getlist(form.files.name)
            if storage.filename
        ]
        if not uploads:
            errors = ["Choose your school's files first."]
        else:
            try:
                files = roster.files_from_uploads(uploads)
                plan = roster.read_roster(files, dt.datetime.now(dt.UTC).date())
            except roster.RosterError as error:
                errors = error.messages
            else:
                if not plan.classes:
                    errors = [
                        "These files have no class we can import: see the reasons below, or "
                        "check that classes.csv is your school's."
                    ]
                else:
                    confirm = RosterConfirmForm(formdata=None)
                    confirm.plan.data = _plan_token(plan, _user().id)
                    return _preview(plan, confirm)
    elif form.is_submitted() and not form.errors.get("csrf_token"):
        errors = ["Choose your school's files first."]
    status = 400 if form.is_submitted() else 200
    return render_template("teach/roster_import.html", form=form, errors=errors), status


@bp.post("/import/confirm")
@teacher_required
def roster_confirm() -> str | Response | tuple[str, int]:
    """Make what the preview showed, for the classes ticked, in one transaction; show the slips."""
    teacher = _user()
    form = RosterConfirmForm()
    plan = _plan_from_token(form.plan.data or "", teacher.id) if form.validate_on_submit() else None
    if plan is None:
        form = RosterUploadForm(formdata=None)
        message = (
            "This preview is too old or was not made for you. Nothing was imported: "
            "choose the files again."
        )
        return render_template("teach/roster_import.html", form=form, errors=[message]), 400
    chosen = set(request.form.getlist("class"))
    leave = set(request.form.getlist("leave")) & chosen
    ticks = (chosen, leave)
    picked = roster.Plan(classes=tuple(c for c in plan.classes if c.sourced_id in chosen))
    if not picked.classes:
        return _preview(
            plan, form, "Tick at least one class to import. Nothing was imported.", ticks
        )

    lines = _analyse(picked, teacher.id)
    new_students = {
        line.student.sourced_id: line.student
        for klass in lines
        for line in klass.students
        if line.status == NEW
    }
    students = list(new_students.values())
    if len(students) > MAX_NAMES:
        # Each new account's password is hashed with scrypt on purpose slowly: as with accounts
        # from a list of names (P-S3), at most MAX_NAMES in one request, so no import holds a
        # worker for long. A second import of the same files makes nothing twice.
        return _preview(
            plan,
            form,
            f"The classes ticked need {len(students)} new accounts; import at most {MAX_NAMES} "
            "at a time. Untick some classes and import these first, then import the same files "
            "again for the rest: nothing is made twice. Nothing was imported.",
            ticks,
        )
    usernames = usernames_for([_student_name(s) for s in students], _taken_usernames)
    passwords = [make_password() for _ in students]
    made: dict[str, tuple[User, str]] = {}
    new_classes = 0
    now = utcnow()
    try:
        for student, username, hashed, password in zip(
            students, usernames, hash_passwords(passwords), passwords, strict=True
        ):
            user = User(
                username=username,
                username_key=User.key_for(username),
                role=Role.STUDENT,
                password_hash=hashed,
                managed_by_id=teacher.id,  # only this teacher may give it a new password
                roster_id=student.sourced_id,
            )
            db.session.add(user)
            made[student.sourced_id] = (user, password)
        for klass_line in lines:
            if klass_line.klass is None:
                klass_line.klass = SchoolClass(
                    teacher_id=teacher.id,
                    name=klass_line.name,
                    join_code=_new_join_code(),
                    roster_id=klass_line.source.sourced_id,
                )
                db.session.add(klass_line.klass)
                new_classes += 1
        db.session.flush()
        renamed = joined = 0
        for klass_line in lines:
            assert klass_line.klass is not None
            for line in klass_line.students:
                name = _display_name(line.student)
                if line.status == RENAMED and line.membership is not None:
                    line.membership.display_name = name
                    renamed += 1
                elif line.status in (NEW, JOINS):
                    account = line.account or made[line.student.sourced_id][0]
                    db.session.add(
                        ClassMembership(
                            class_id=klass_line.klass.id,
                            student_id=account.id,
                            joined_at=now,
                            display_name=name,
                        )
                    )
                    joined += line.status == JOINS
        # Students who left the school's roster, where the teacher ticked it: out of the class,
        # each to be undone for a while as a removal by hand is (P-S6).
        removals: list[tuple[SchoolClass, str]] = []
        for klass_line in lines:
            if klass_line.source.sourced_id not in leave or klass_line.klass is None:
                continue
            for line in klass_line.leaving:
                assert line.membership is not None
                removals.append((klass_line.klass, take_out(klass_line.klass, line.membership)))
        db.session.commit()
    except IntegrityError:
        # A username taken a moment ago, or the same files imported twice at once: nothing is kept.
        db.session.rollback()
        return _preview(
            plan,
            form,
            "Something changed while we were importing (perhaps the same files at once in another "
            "tab). Nothing was imported; please press Import again.",
            ticks,
        )
    classes = [
        (
            klass_line.klass,
            [
                Slip(line.student.name, *_login(made[line.student.sourced_id]))
                for line in klass_line.students
                if line.student.sourced_id in made
            ],
        )
        for klass_line in lines
    ]
    for _klass, token in removals:
        remember_removal(token)
    per_class = Counter(klass.id for klass, _token in removals)
    taken_out = {klass.id: (klass, per_class[klass.id]) for klass, _token in removals}
    html = render_template(
        "teach/roster_slips.html",
        classes=classes,
        made=len(made),
        new_classes=new_classes,
        renamed=renamed,
        joined=joined,
        taken_out=list(taken_out.values()),
    )
    return _no_store(html)


def _login(made: tuple[User, str]) -> tuple[str, str]:
    user, password = made
    return user.username, password


def _display_name(student: roster.RosterStudent) -> str:
    """The name kept on the membership: checked as a typed name is (the core checked it too)."""
    try:
        return clean_name(student.name)
    except UnsafeText:  # pragma: no cover - the core refuses such a row first
        return student.name.encode("ascii", "ignore").decode()
