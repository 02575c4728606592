"""Sign-up and login forms."""

from __future__ import annotations

import re

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms.fields.choices import SelectChoice
from wtforms import EmailField, PasswordField, RadioField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length, Optional, ValidationError
from wtforms.validators import Email as EmailValidator

from ..extensions import db
from ..models import USERNAME_MAX, Role, User

USERNAME_PATTERN = re.compile(r"[A-Za-z0-9_.-]+")
PASSWORD_MIN = 8


class SignupForm(FlaskForm):
    """A new account: students need only a username and a password."""

    role = RadioField(
        "I am a",
        choices=[SelectChoice(Role.STUDENT.value, "Student"), SelectChoice(Role.TEACHER.value, "Teacher")],
        default=Role.STUDENT.value,
        validators=[DataRequired(message="Choose student or teacher.")],
    )
    username = StringField(
        "Username",
        validators=[
            DataRequired(message="Choose a username."),
            Length(min=3, max=USERNAME_MAX, message=f"A username has 3 to {USERNAME_MAX} characters."),
        ],
        description="Letters, numbers, dots, dashes and underscores. Not your real full name.",
        render_kw={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"},
    )
    email = EmailField(
        "Email (teachers only, optional)",
        validators=[Optional(), EmailValidator(message="That does not look like an email address."), Length(max=254)],
        render_kw={"autocomplete": "email"},
    )
    password = PasswordField(
        "Password",
        validators=[
            DataRequired(message="Choose a password."),
            Length(min=PASSWORD_MIN, max=128, message=f"A password has at least {PASSWORD_MIN} characters."),
        ],
        description=f"At least {PASSWORD_MIN} characters.",
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "Type the password again",
        validators=[DataRequired(message="Type the password again."), EqualTo("password", message="The two passwords are not the same.")],
        render_kw={"autocomplete": "new-password"},
    )
    submit = SubmitField("Sign up")

    def validate_username(self, field: StringField) -> None:
        value = (field.data or "").strip()
        if not USERNAME_PATTERN.fullmatch(value):
            raise ValidationError("Use only letters, numbers, dots, dashes and underscores.")
        taken = db.session.execute(select(User.id).where(User.username_key == User.key_for(value))).first()
        if taken:
            raise ValidationError("That username is taken. Try another.")

    def validate_email(self, field: EmailField) -> None:
        if field.data and self.role.data != Role.TEACHER.value:
            # Children's data: we do not keep a student's email address.
            raise ValidationError("Students do not give an email address. Leave this empty.")


class LoginForm(FlaskForm):
    """Username and password."""

    username = StringField(
        "Username",
        validators=[DataRequired(message="Type your username."), Length(max=USERNAME_MAX, message="No username is that long.")],
        render_kw={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"},
    )
    password = PasswordField(
        "Password",
        validators=[DataRequired(message="Type your password."), Length(max=128, message="No password is that long.")],
        render_kw={"autocomplete": "current-password"},
    )
    submit = SubmitField("Log in")


class LogoutForm(FlaskForm):
    """An empty form: logging out is a POST with a CSRF token."""

    submit = SubmitField("Log out")
