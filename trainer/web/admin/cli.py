"""``flask --app app create-admin``: the school's first admin, made on the server by whoever runs it."""

from __future__ import annotations

import click
from flask import Flask
from sqlalchemy import select

from ..auth.forms import PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN
from ..auth.passwords import password_problem
from ..extensions import db
from ..models import USERNAME_MAX, Role, User


def _username_problem(username: str) -> str | None:
    if not 3 <= len(username) <= USERNAME_MAX:
        return f"A username has 3 to {USERNAME_MAX} characters."
    if not USERNAME_PATTERN.fullmatch(username):
        return "Use only letters, numbers, dots, dashes and underscores."
    return None


def _password_problem(password: str, username: str) -> str | None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."
    return password_problem(password, username)


def create_admin(username: str | None, password: str | None) -> None:
    """Make a teacher account with the admin flag; run again, it changes nothing.

    An existing teacher account is made an admin (its password is left alone); a student
    account is never turned into one.

    Raises:
        click.ClickException: a bad username or password, or a student's username.
    """
    username = (username or click.prompt("Username")).strip()
    problem = _username_problem(username)
    if problem:
        raise click.ClickException(problem)
    user = db.session.execute(
        select(User).where(User.username_key == User.key_for(username))
    ).scalar_one_or_none()
    if user is not None:
        if not user.is_teacher:
            raise click.ClickException(
                f"{user.username} is a student's account: choose another username for the admin."
            )
        if user.is_admin:
            click.echo(f"{user.username} is already a school admin. Nothing changed.")
            return
        user.is_admin = True
        db.session.commit()
        click.echo(f"{user.username} is now a school admin (their password is unchanged).")
        return
    password = password or click.prompt("Password", hide_input=True, confirmation_prompt=True)
    problem = _password_problem(password, username)
    if problem:
        raise click.ClickException(problem)
    admin = User(
        username=username, username_key=User.key_for(username), role=Role.TEACHER, is_admin=True
    )
    admin.set_password(password)
    db.session.add(admin)
    db.session.commit()
    click.echo(f"School admin {username} created. Log in, open Admin and invite your teachers.")


def init_app(app: Flask) -> None:
    """Register ``create-admin`` on the app's CLI."""

    @app.cli.command("create-admin")
    @click.option("--username", help="The admin's username (asked for when left out).")
    @click.option(
        "--password",
        help="The admin's password (asked for, hidden, when left out; use only in scripts).",
    )
    def create_admin_command(username: str | None, password: str | None) -> None:
        """Make a school admin: a teacher account that invites the school's other teachers."""
        create_admin(username, password)
