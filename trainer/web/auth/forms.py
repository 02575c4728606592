"""Sign-up, login and password forms."""

from __future__ import annotations

import re

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms import EmailField, PasswordField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, EqualTo, Length, Optional, ValidationError
from wtforms.validators import Email as EmailValidator

from ..extensions import db
from ..models import USERNAME_MAX, Role, User
from ..text import TypedName
from .passwords import password_problem

USERNAME_PATTERN = re.compile(r"[A-Za-z0-9_.-]+")
PASSWORD_MIN = 8
PASSWORD_MAX = 128
PASSWORD_HINT = f"At least {PASSWORD_MIN} characters, not easy to guess: three words you will remember are best."
#: Shown on the sign-up page when open teacher sign-up is off.
TEACHERS_ARE_INVITED = "Teachers are invited by their school's admin: ask them for an invite link."


def _new_password_field(label: str = "Password") -> PasswordField:
    return PasswordField(
        label,
        validators=[
            DataRequired(message="Choose a password."),
            Length(
                min=PASSWORD_MIN,
                max=PASSWORD_MAX,
                message=f"A password has at least {PASSWORD_MIN} characters.",
            ),
        ],
        description=PASSWORD_HINT,
        render_kw={"autocomplete": "new-password"},
    )


def _confirm_field(other: str) -> PasswordField:
    return PasswordField(
        "Type the password again",
        validators=[
            DataRequired(message="Type the password again."),
            EqualTo(other, message="The two passwords are not the same."),
        ],
        render_kw={"autocomplete": "new-password"},
    )


def _email_field(label: str) -> EmailField:
    return EmailField(
        label,
        validators=[
            Optional(),
            EmailValidator(message="That does not look like an email address."),
            Length(max=254),
        ],
        render_kw={"autocomplete": "email"},
    )


def check_new_password(field: PasswordField, username: str | None) -> None:
    """Refuse a password that is easy to guess (``trainer.web.auth.passwords``), as a form error.

    A password already refused (too short, say) gets no second message.
    """
    if field.errors:
        return
    problem = password_problem(field.data or "", username or "")
    if problem:
        raise ValidationError(problem)


class NewAccountForm(FlaskForm):
    """A username nobody has and a password that is not easy to guess, typed twice."""

    username = StringField(
        "Username",
        validators=[
            DataRequired(message="Choose a username."),
            TypedName(),  # no hidden or control characters (P-H12, trainer/web/text.py)
            Length(
                min=3, max=USERNAME_MAX, message=f"A username has 3 to {USERNAME_MAX} characters."
            ),
        ],
        description="Letters, numbers, dots, dashes and underscores. Not your real full name.",
        render_kw={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"},
    )
    password = _new_password_field()
    confirm = _confirm_field("password")

    def validate_username(self, field: StringField) -> None:
        value = (field.data or "").strip()
        if not USERNAME_PATTERN.fullmatch(value):
            raise ValidationError("Use only letters, numbers, dots, dashes and underscores.")
        taken = db.session.execute(
            select(User.id).where(User.username_key == User.key_for(value))
        ).first()
        if taken:
            raise ValidationError("That username is taken. Try another.")

    def validate_password(self, field: PasswordField) -> None:
        check_new_password(field, self.username.data)


class SignupForm(NewAccountForm):
    """A new account. Students need only a username and a password; a teacher account only when
    open teacher sign-up is on (else teachers come through an admin's invite)."""

    role = RadioField(
        "I am a",
        choices=[SelectChoice(Role.STUDENT.value, "Student")],
        default=Role.STUDENT.value,
        validators=[DataRequired(message="Choose student or teacher.")],
    )
    email = _email_field("Email (teachers only, optional)")
    submit = SubmitField("Sign up")

    def __init__(self, *args: object, teachers_may_sign_up: bool, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        # Without the teacher choice, a form that still sends role=teacher is refused, not
        # quietly turned into a student.
        if teachers_may_sign_up:
            self.role.choices = [
                SelectChoice(Role.STUDENT.value, "Student"),
                SelectChoice(Role.TEACHER.value, "Teacher"),
            ]

    @property
    def teachers_may_sign_up(self) -> bool:
        return len(self.role.choices) > 1

    def validate_email(self, field: EmailField) -> None:
        if field.data and self.role.data != Role.TEACHER.value:
            # Children's data: we do not keep a student's email address.
            raise ValidationError("Students do not give an email address. Leave this empty.")


class InviteSignupForm(NewAccountForm):
    """A teacher account, through an admin's invite link."""

    email = _email_field("Email (optional)")
    submit = SubmitField("Make my teacher account")


class PasswordForm(FlaskForm):
    """A new password for one's own account, with the current one to show it is really them."""

    current = PasswordField(
        "Your password now",
        validators=[
            DataRequired(message="Type your password now."),
            Length(max=PASSWORD_MAX, message="No password is that long."),
        ],
        render_kw={"autocomplete": "current-password"},
    )
    password = _new_password_field("New password")
    confirm = _confirm_field("password")
    submit = SubmitField("Change my password")

    def __init__(self, user: User, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def validate_current(self, field: PasswordField) -> None:
        if not self.user.check_password(field.data or ""):
            raise ValidationError("That is not your password now. Check it and try again.")

    def validate_password(self, field: PasswordField) -> None:
        check_new_password(field, self.user.username)


class LoginForm(FlaskForm):
    """Username and password."""

    username = StringField(
        "Username",
        validators=[
            DataRequired(message="Type your username."),
            Length(max=USERNAME_MAX, message="No username is that long."),
        ],
        render_kw={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"},
    )
    password = PasswordField(
        "Password",
        validators=[
            DataRequired(message="Type your password."),
            Length(max=PASSWORD_MAX, message="No password is that long."),
        ],
        render_kw={"autocomplete": "current-password"},
    )
    submit = SubmitField("Log in")


class LogoutForm(FlaskForm):
    """An empty form: logging out is a POST with a CSRF token."""

    submit = SubmitField("Log out")
