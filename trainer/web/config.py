"""Configuration read from the environment, with safe defaults for a laptop."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def _secret_key(instance_path: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in ``instance/``."""
    from_env = os.environ.get("SECRET_KEY")
    if from_env:
        return from_env
    key_file = instance_path / "secret_key"
    if key_file.is_file():
        key = key_file.read_text(encoding="utf-8").strip()
        if key:
            return key
    key = secrets.token_hex(32)
    instance_path.mkdir(parents=True, exist_ok=True)
    # Created with owner-only permissions: the key signs every session cookie.
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key)
    return key


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def from_environment(instance_path: Path, *, with_secret: bool = True) -> dict[str, Any]:
    """The settings for ``create_app`` taken from environment variables.

    ``DATABASE_URL`` (default SQLite in ``instance/``), ``SECRET_KEY`` (default generated once),
    ``REDIS_URL`` (optional: rate-limit counters and live tables' notices shared by several
    workers), ``HTTPS`` (set to 1
    behind an HTTPS proxy: Secure cookies, proxy headers trusted), ``GEOPLUNGE_DATA_DIR``
    (another copy of ``data/``, e.g. to check edited data before it ships),
    ``GEOPLUNGE_OPEN_TEACHER_SIGNUP`` (set to 1 to let anyone sign up as a teacher: for an
    install with one teacher and no school admin), ``GEOPLUNGE_FIT_IN_BACKGROUND`` (on by
    default; 0 turns off fitting students' memory models after their answers, P-M10).
    """
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{instance_path / 'geoplunge.db'}"
    # Hosting providers still hand out postgres:// URLs; SQLAlchemy wants a driver name.
    if database_url.startswith("postgres://"):
        database_url = "postgresql+psycopg://" + database_url.removeprefix("postgres://")
    elif database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url.removeprefix("postgresql://")
    https = _flag("HTTPS")
    settings: dict[str, Any] = {
        "SQLALCHEMY_DATABASE_URI": database_url,
        "DATA_DIR": os.environ.get("GEOPLUNGE_DATA_DIR") or None,
        "RATELIMIT_STORAGE_URI": os.environ.get("REDIS_URL") or "memory://",
        # Live tables: each server process fans out every table's notices through Redis.
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        "SESSION_COOKIE_SECURE": https,
        "REMEMBER_COOKIE_SECURE": https,
        "PREFERRED_URL_SCHEME": "https" if https else "http",
        "BEHIND_PROXY": https or _flag("BEHIND_PROXY"),
        # Off: teachers are invited by the school's admin (trainer.web.admin).
        "OPEN_TEACHER_SIGNUP": _flag("GEOPLUNGE_OPEN_TEACHER_SIGNUP"),
        # On: a student's memory model is fitted in a background thread once enough new answers
        # came in (trainer.web.fitting); `flask --app app fit-memory` does it by hand.
        "FIT_IN_BACKGROUND": _flag("GEOPLUNGE_FIT_IN_BACKGROUND", default=True),
    }
    if with_secret:
        settings["SECRET_KEY"] = _secret_key(instance_path)
    return settings


DEFAULTS: dict[str, Any] = {
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_SAMESITE": "Lax",
    "WTF_CSRF_TIME_LIMIT": None,  # a token lives as long as the session it belongs to
    "RATELIMIT_HEADERS_ENABLED": True,
    # Failed logins only. A school's Chromebooks share one address, so the per-address limit is
    # generous. Guessing one account's password is what the per-username limits stop: quickly per
    # username and address, so a classmate elsewhere typing wrong passwords for "maria.g" does not
    # lock Maria out, and slowly per username from everywhere, so many addresses cannot guess fast.
    "LOGIN_LIMIT_PER_USERNAME_AND_ADDRESS": "10 per 5 minutes",
    "LOGIN_LIMIT_PER_USERNAME": "50 per hour",
    "LOGIN_LIMIT_PER_ADDRESS": "100 per 5 minutes",
    # Server-side login sessions (trainer.web.auth.sessions): one unused this long ends by itself
    # (as long as the signed cookie lasted before); its last use is written at most this often.
    "LOGIN_SESSION_IDLE_DAYS": 31,
    # Werkzeug's method for new password hashes; the test suite's config sets a cheap one.
    "PASSWORD_HASH_METHOD": "scrypt",
    "LOGIN_SESSION_TOUCH_SECONDS": 3600,
    "SIGNUP_RATE_LIMIT": "100 per hour",  # per address; a class signing up together shares one
    # Failed joins only, per student: enough for typos, far too few to guess another class's code.
    "JOIN_RATE_LIMIT": "30 per hour",
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    # Compressed (Flask-Compress, issue 25): what is text. Not the Anki package (a zip already) or
    # plotly.js (its route sends it gzipped itself). A compressed page's size depends on all its
    # text, its CSRF token too (BREACH); guessing the token that way needs an attacker who sees
    # the encrypted traffic and can make the page show text of their choosing many times over,
    # and the app's pages show no text taken from a URL.
    "COMPRESS_MIMETYPES": [
        "text/html",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/json",
        "image/svg+xml",
        "text/csv",
        "text/plain",
    ],
}
