"""The application factory: configuration, refusing bad data, the CLI and the migrations."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade
from sqlalchemy import inspect

from tests.conftest import make_test_config
from tests.web.migrations import databases, empty_database
from trainer.cards import DATA_DIR, DeckError
from trainer.web import config as config_module
from trainer.web import create_app
from trainer.web.extensions import db

ROOT = Path(__file__).resolve().parents[2]


def test_app_refuses_to_start_on_bad_data(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    text_ = (
        (data / "states.csv")
        .read_text()
        .replace("Colorado,CO,Denver,103642,8,", "Colorado,CO,Denver,103642,9,")
    )
    (data / "states.csv").write_text(text_)
    with pytest.raises(DeckError, match=r"states.csv line \d+ \((Colorado|Wyoming)\): size_rank 9"):
        create_app({**make_test_config("sqlite", tmp_path), "DATA_DIR": str(data)})


def test_app_py_exits_with_the_row_named(tmp_path):
    """`flask run` / gunicorn on broken data: a clear message and a non-zero exit, no traceback."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    (data / "borders.csv").write_text((data / "borders.csv").read_text() + "AK,WA\n")
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
        "SECRET_KEY": "x",
        "GEOPLUNGE_DATA_DIR": str(data),
    }
    result = subprocess.run(
        [sys.executable, "-c", "import app"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert (
        "refuses to start" in result.stderr
        and "borders.csv line 107 (AK,WA): AK borders no state (G5)" in result.stderr
    )
    assert "Traceback" not in result.stderr


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = config_module.from_environment(tmp_path)["SECRET_KEY"]
    second = config_module.from_environment(tmp_path)["SECRET_KEY"]
    assert first == second and len(first) >= 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert config_module.from_environment(tmp_path)["SECRET_KEY"] == "from-env"


def test_environment_settings(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("HTTPS", raising=False)
    settings = config_module.from_environment(tmp_path, with_secret=False)
    assert settings["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'geoplunge.db'}"
    assert settings["RATELIMIT_STORAGE_URI"] == "memory://"
    assert settings["SESSION_COOKIE_SECURE"] is False
    monkeypatch.setenv("DATABASE_URL", "postgres://u@db/geo")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("HTTPS", "1")
    settings = config_module.from_environment(tmp_path, with_secret=False)
    assert settings["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u@db/geo"
    assert settings["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"
    assert settings["SESSION_COOKIE_SECURE"] is True and settings["REMEMBER_COOKIE_SECURE"] is True


def test_secure_cookies_behind_https(tmp_path, monkeypatch):
    monkeypatch.setenv("HTTPS", "1")
    app = create_app(make_test_config("sqlite", tmp_path))
    with app.app_context():
        db.create_all()
    client = app.test_client()
    client.get("/auth/login", base_url="https://localhost")
    response = client.get("/auth/login", base_url="https://localhost")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_check_data_command(runner):
    result = runner.invoke(args=["check-data"])
    assert result.exit_code == 0
    assert "Deck OK: 50 states, 105 border pairs, 15 Power cards, 50 map outlines." in result.output


@pytest.mark.parametrize("database", databases())
def test_migrations_build_the_models_schema(tmp_path, database):
    """`flask db upgrade` on an empty database gives exactly the models' tables (nothing to autogenerate)."""
    with empty_database(tmp_path, database):
        upgrade()
        assert {"user", "alembic_version"} <= set(inspect(db.engine).get_table_names())
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []
