"""What the migration tests share: the databases they run on, and an empty database for each."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from tests.conftest import TEST_DATABASE_URL, make_test_config
from trainer.web import create_app
from trainer.web.extensions import db


def databases() -> list[Any]:
    """SQLite, and PostgreSQL where ``TEST_DATABASE_URL`` is set: the ``database`` parameter."""
    params = [pytest.param("sqlite", id="sqlite")]
    if TEST_DATABASE_URL:
        params.append(pytest.param(TEST_DATABASE_URL, id="postgresql", marks=pytest.mark.postgres))
    return params


def _wipe() -> None:
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))


@contextmanager
def empty_database(tmp_path: Path, database: str) -> Iterator[Flask]:
    """An app on ``database`` with no table at all (not even Alembic's), inside its app context;
    emptied again afterwards, since the PostgreSQL server keeps what a run leaves."""
    app = create_app(make_test_config(database, tmp_path))
    with app.app_context():
        _wipe()
        try:
            yield app
        finally:
            db.session.remove()
            _wipe()
            db.engine.dispose()
