"""Every Flask extension object, created once here and bound in ``create_app``."""

from __future__ import annotations

import sqlite3
from typing import Any, cast

from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import CursorResult, Executable, MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with a naming convention, so migrations name constraints the same everywhere."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
login_manager = LoginManager()
limiter = Limiter(key_func=get_remote_address)
#: Responses compressed as the browser accepts (zstd, Brotli or gzip; issue 25).
compress = Compress()


def changed_rows(statement: Executable) -> int:
    """Run an UPDATE or DELETE in the session and say how many rows it changed (a conditional
    UPDATE that changed none lost a race). ``Session.execute`` is typed as returning a plain
    ``Result``; for these statements it is a ``CursorResult``, which has the count."""
    return cast(CursorResult[Any], db.session.execute(statement)).rowcount


@event.listens_for(Engine, "connect")
def _tune_sqlite(dbapi_connection: Any, _record: Any) -> None:
    """SQLite in WAL mode: readers never wait for a writer, and a commit is one sync, not four.

    Several gunicorn workers share the file; in SQLite's default journal mode each answer's
    commit would make the others wait. ``synchronous=NORMAL`` is the setting WAL is meant for:
    the database stays consistent even if the power fails.
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
