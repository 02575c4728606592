"""Forms of the teacher pages (classes, settings, student accounts) and of joining a class."""

from __future__ import annotations

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms import DecimalField, HiddenField, IntegerField, StringField, SubmitField, TextAreaField
from wtforms.validators import AnyOf, DataRequired, Length, NumberRange, Optional, ValidationError

from trainer import srs

from ..extensions import db
from ..models import CLASS_NAME_MAX, JOIN_CODE_LENGTH, SchoolClass
from .accounts import MAX_NAMES, NameListError, StudentName, normalise_code, parse_names


def class_name_key(name: str) -> str:
    """A class name with case and spacing ignored: "Room 12" and "room  12" are one name."""
    return " ".join(name.split()).casefold()


class ClassNameMixin:
    """A class name: required, not too long, not the name of another of the teacher's classes."""

    #: The teacher whose classes the name must differ from, and the class being renamed (if any).
    teacher_id: int
    class_id: int | None = None

    def validate_name(self, field: StringField) -> None:
        name = " ".join((field.data or "").split())
        field.data = name
        rows = db.session.execute(select(SchoolClass.id, SchoolClass.name).where(SchoolClass.teacher_id == self.teacher_id)).all()
        if any(class_name_key(row.name) == class_name_key(name) and row.id != self.class_id for row in rows):
            raise ValidationError(f"You already have a class called “{name}”. Choose another name.")


def _name_field() -> StringField:
    return StringField(
        "Class name",
        validators=[
            DataRequired(message="Give the class a name."),
            Length(max=CLASS_NAME_MAX, message=f"A class name has at most {CLASS_NAME_MAX} characters."),
        ],
        description="For example “Period 3 Geography”. Your students see it.",
        render_kw={"maxlength": CLASS_NAME_MAX, "autocomplete": "off"},
    )


class NewClassForm(ClassNameMixin, FlaskForm):
    """A new class: just its name."""

    name = _name_field()
    submit = SubmitField("Create class")

    def __init__(self, teacher_id: int, **kwargs: object):
        super().__init__(**kwargs)
        self.teacher_id = teacher_id


RETENTION_MESSAGE = "Type a whole number from 70 to 97, or leave it empty."
NEW_MESSAGE = f"Type a number from 0 to {srs.MAX_NEW_PER_DAY}, or leave it empty."


class ClassSettingsForm(ClassNameMixin, FlaskForm):
    """A class's name and the study settings it sets for its students (empty: their own)."""

    name = _name_field()
    desired_retention = DecimalField(
        "How much to remember (desired retention, %)",
        places=0,
        validators=[
            Optional(),
            NumberRange(min=srs.MIN_RETENTION * 100, max=srs.MAX_RETENTION * 100, message=RETENTION_MESSAGE),
        ],
        description="From 70 to 97. Empty: each student’s own setting (90% unless they changed it).",
        render_kw={"inputmode": "numeric", "min": 70, "max": 97, "step": 1},
    )
    new_per_day = IntegerField(
        "New facts per day",
        validators=[Optional(), NumberRange(min=0, max=srs.MAX_NEW_PER_DAY, message=NEW_MESSAGE)],
        description=f"From 0 to {srs.MAX_NEW_PER_DAY}. Empty: each student’s own setting (20 unless they changed it).",
        render_kw={"inputmode": "numeric", "min": 0, "max": srs.MAX_NEW_PER_DAY},
    )
    submit = SubmitField("Save settings")

    def __init__(self, teacher_id: int, class_id: int, **kwargs: object):
        super().__init__(**kwargs)
        self.teacher_id = teacher_id
        self.class_id = class_id

    def validate_desired_retention(self, field: DecimalField) -> None:
        if field.data is not None and field.data != field.data.to_integral_value():
            raise ValidationError(RETENTION_MESSAGE)


class NewStudentsForm(FlaskForm):
    """A pasted list of names, one per line: an account is made for each."""

    names = TextAreaField(
        "Student names, one per line",
        validators=[Length(max=MAX_NAMES * 80, message=f"That list is too long. Add at most {MAX_NAMES} names at a time.")],
        description=(
            f"Up to {MAX_NAMES} names. “Maria Gonzalez” becomes the username maria.g; "
            "“Gonzalez, Maria” works too. Names are not stored: they are only printed on the login slips."
        ),
        render_kw={"rows": 12, "autocomplete": "off", "spellcheck": "false"},
    )
    #: One use per list, so reloading the slips page does not make the accounts a second time.
    batch = HiddenField()
    submit = SubmitField("Create accounts")

    parsed: list[StudentName]

    def validate_names(self, field: TextAreaField) -> None:
        try:
            self.parsed = parse_names(field.data or "")
        except NameListError as error:
            raise ValidationError(" ".join(error.messages)) from None


class JoinForm(FlaskForm):
    """A join code typed by a student."""

    code = StringField(
        "Class code",
        validators=[DataRequired(message="Type the code your teacher gave you.")],
        description=f"{JOIN_CODE_LENGTH} letters and numbers, from your teacher.",
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false", "maxlength": 20},
    )
    submit = SubmitField("Join")

    def validate_code(self, field: StringField) -> None:
        code = normalise_code(field.data or "")
        if len(code) != JOIN_CODE_LENGTH or not code.isalnum():
            raise ValidationError(
                f"A class code has {JOIN_CODE_LENGTH} letters and numbers, like ABCD2345. Check it with your teacher."
            )
        field.data = code


class ConfirmForm(FlaskForm):
    """A button that does one thing: a POST with a CSRF token and nothing else."""

    submit = SubmitField("Confirm")


class JoiningForm(FlaskForm):
    """Open or close joining (the button says which)."""

    joining = HiddenField(validators=[AnyOf(["open", "closed"], message="Choose open or closed.")])
    submit = SubmitField("Save")
