"""What a database error means for a request (the database is out of reach for a moment, or a
bug), and how to forget the transaction it broke."""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from .extensions import db

# SQLite raises OperationalError for mistakes in SQL as well ("no such table"), so only these
# primary result codes mean "busy, or cannot be reached": BUSY, LOCKED, IOERR, CANTOPEN.
_SQLITE_OUT_OF_REACH = {5, 6, 10, 14}
# An error raised by hand (or by an older sqlite3) has no code: its message says the same.
_SQLITE_MESSAGES = (
    "database is locked",
    "database table is locked",
    "unable to open database file",
    "disk i/o error",
)


def unavailable(error: BaseException) -> bool:
    """True when ``error`` says the database cannot be used right now (restarting, refusing
    connections, a dropped connection, busy), so the same request may well work in a moment.

    Any other error (a constraint, bad data, wrong SQL) is not cured by trying again.
    """
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, InterfaceError):
        return True
    if not isinstance(error, OperationalError):
        return False
    original = error.orig
    if isinstance(original, sqlite3.OperationalError):
        code = getattr(original, "sqlite_errorcode", None)
        if code is not None:
            return code & 0xFF in _SQLITE_OUT_OF_REACH
        return str(original).lower().startswith(_SQLITE_MESSAGES)
    # PEP 249's OperationalError (psycopg's too): a lost connection, a server shutting down, a
    # deadlock or serialization failure, a statement timeout. All of them pass.
    return True


def roll_back() -> None:
    """Forget the session's transaction without needing the database to answer: after a failed
    statement (PostgreSQL refuses every other until the rollback) or a lost connection (which
    takes its transaction with it)."""
    try:
        db.session.rollback()
    except Exception:  # noqa: BLE001 - the connection is gone: start afresh on the next use
        db.session.close()
