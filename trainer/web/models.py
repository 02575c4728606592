"""The database tables, as typed SQLAlchemy 2.0 models. Times are stored in UTC."""

from __future__ import annotations

import datetime as dt
import enum

from flask_login import UserMixin
from sqlalchemy import DateTime, Enum, String, TypeDecorator, func
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Mapped, mapped_column
from werkzeug.security import check_password_hash, generate_password_hash

from .extensions import db


def utcnow() -> dt.datetime:
    """The current time, timezone-aware UTC."""
    return dt.datetime.now(dt.timezone.utc)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A datetime stored as UTC and always read back timezone-aware (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; use timezone-aware UTC")
        return value.astimezone(dt.timezone.utc)

    def process_result_value(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.timezone.utc)
        return value.astimezone(dt.timezone.utc)


class Role(str, enum.Enum):
    """What a user is: a student learns; a teacher also runs classes."""

    STUDENT = "student"
    TEACHER = "teacher"


USERNAME_MAX = 32


class User(UserMixin, db.Model):
    """An account. Students have no email address: they are children."""

    __tablename__ = "user"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_MAX))
    #: Lower-cased username, so "Ana" and "ana" cannot both sign up.
    username_key: Mapped[str] = mapped_column(String(USERNAME_MAX), unique=True, index=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(
        Enum(Role, name="user_role", values_callable=lambda roles: [r.value for r in roles], validate_strings=True)
    )
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime(), default=utcnow, server_default=func.now())
    last_login_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    @staticmethod
    def key_for(username: str) -> str:
        """The case-insensitive lookup key of a username."""
        return username.strip().casefold()

    def set_password(self, password: str) -> None:
        """Store a salted hash of ``password`` (scrypt, Werkzeug's default KDF)."""
        self.password_hash = generate_password_hash(password)

    def check_password(self, password: str) -> bool:
        """True when ``password`` matches the stored hash."""
        return check_password_hash(self.password_hash, password)

    @property
    def is_teacher(self) -> bool:
        return self.role is Role.TEACHER

    def __repr__(self) -> str:
        return f"<User {self.username} ({self.role.value})>"
