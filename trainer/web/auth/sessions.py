"""Login sessions kept in the database, so that logging out and a new password really end them.

Flask's session is a signed cookie: the server keeps nothing, so a copy of the cookie taken
before logging out stays valid until it expires (31 days), and a new password leaves every
signed-in device signed in. Here each login is a row of ``login_session`` holding the SHA-256 of
a random token; the token itself is Flask-Login's user id in the cookie. Deleting the row ends
that login wherever the cookie is.

Why rows in the app's own database rather than the alternatives:

- Flask-Login's "alternative id" (one per user, changed to log out) can only end every session of
  a user at once: logging out of one Chromebook would log the student out everywhere.
- Redis (or another session store) would be a new service to run; a one-teacher install has
  only SQLite, and this works the same on SQLite and PostgreSQL.
- The cost is one query per request on a unique index (the user and their session in one join),
  which replaces the query that loaded the user by id, and an UPDATE of ``last_seen_at`` at most
  once per ``LOGIN_SESSION_TOUCH_SECONDS``.

A login session unused for ``LOGIN_SESSION_IDLE_DAYS`` ends by itself, and a new password ends
every session of its account (``User.set_password``).
"""

from __future__ import annotations

import datetime as dt
import secrets

from flask import current_app, request, session
from flask_login import current_user, login_user, logout_user
from sqlalchemy import bindparam, delete, select

from ..extensions import db
from ..models import LoginSession, User, token_digest, utcnow

#: Random bytes in a token (256 bits: never guessed, never repeated).
TOKEN_BYTES = 32
#: Longer ids in a cookie are not tokens of ours (token_urlsafe(32) has 43 characters).
_TOKEN_MAX = 64


def _idle_cutoff(now: dt.datetime) -> dt.datetime:
    return now - dt.timedelta(days=current_app.config["LOGIN_SESSION_IDLE_DAYS"])


def start(user: User) -> None:
    """Log ``user`` in on this browser with a new login session.

    The Flask session is emptied first, so no value of the cookie from before the login survives
    it (the CSRF token is drawn again too); the caller's flash messages come after.
    """
    token = secrets.token_urlsafe(TOKEN_BYTES)
    now = utcnow()
    # The user's sessions that ended by themselves go now: the table keeps only live ones.
    db.session.execute(
        delete(LoginSession).where(
            LoginSession.user_id == user.id, LoginSession.last_seen_at < _idle_cutoff(now)
        )
    )
    login = LoginSession(
        user_id=user.id, token_hash=token_digest(token), created_at=now, last_seen_at=now
    )
    db.session.add(login)
    db.session.commit()
    user.session_token, user.login_session = token, login
    session.clear()
    login_user(user)


def end() -> None:
    """Log out on this browser: delete this login session, then forget the Flask session."""
    token = getattr(current_user, "session_token", None)
    if token:
        db.session.execute(
            delete(LoginSession).where(LoginSession.token_hash == token_digest(token))
        )
        db.session.commit()
    logout_user()
    session.clear()


#: The user of a live login session, by the token's digest: built once, since building the
#: statement was a third of loading the user (issue 25: per-request work).
_LOAD = (
    select(User, LoginSession)
    .join(LoginSession, LoginSession.user_id == User.id)
    .where(
        LoginSession.token_hash == bindparam("digest"),
        LoginSession.last_seen_at >= bindparam("cutoff"),
    )
)


def load(token: str) -> User | None:
    """Flask-Login's user loader: the user of a live login session, in one indexed query."""
    if not token or len(token) > _TOKEN_MAX:
        return None
    row = db.session.execute(
        _LOAD, {"digest": token_digest(token), "cutoff": _idle_cutoff(utcnow())}
    ).first()
    if row is None:
        return None
    user, login = row
    user.session_token = token
    user.login_session = login
    return user


def keep_alive() -> None:
    """Load the signed-in user before the view runs, and note that their session is in use.

    Run before every request but static files, while nothing of the view is in the database
    session yet, so committing ``last_seen_at`` commits nothing else.
    """
    if request.endpoint == "static" or not current_user.is_authenticated:
        return
    login: LoginSession = current_user.login_session
    now = utcnow()
    if (now - login.last_seen_at).total_seconds() >= current_app.config[
        "LOGIN_SESSION_TOUCH_SECONDS"
    ]:
        login.last_seen_at = now
        db.session.commit()


__all__ = ["end", "keep_alive", "load", "start"]
