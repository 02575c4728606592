"""Fixtures shared by every test: the app on SQLite (and PostgreSQL where configured), clients, users."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import DBAPIError
from werkzeug.routing import Rule
from werkzeug.security import generate_password_hash

import trainer.web as web_package
from trainer.cards import DATA_DIR, Deck
from trainer.web import create_app
from trainer.web.extensions import db
from trainer.web.models import Role, User

#: Set by .ci/run: a skipped browser or PostgreSQL test then fails the run instead.
REQUIRE_FULL_SUITE = os.environ.get("GEOPLUNGE_REQUIRE_FULL_SUITE") == "1"


def _worker_database(url: str) -> str:
    """Under pytest-xdist, each worker gets a PostgreSQL database of its own (``test_gw0``, ...),
    made on first use, since the tests drop and create every table: two workers on one database
    would drop each other's tables. Without xdist, the URL is used as it is."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker:
        return url
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{base.database}_{worker}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            exists = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if not exists:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


TEST_DATABASE_URL = _worker_database(os.environ.get("TEST_DATABASE_URL", ""))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if REQUIRE_FULL_SUITE and not TEST_DATABASE_URL:
        raise pytest.UsageError("GEOPLUNGE_REQUIRE_FULL_SUITE=1 but TEST_DATABASE_URL is not set")


_RAN: dict[str, int] = {"browser": 0, "postgres": 0}
_SKIPPED: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for kind in _RAN:
        if kind in report.keywords:
            if report.skipped:
                _SKIPPED.append(report.nodeid)
            elif report.when == "call":
                _RAN[kind] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI, browser and PostgreSQL tests must run: a skip, or none at all, fails the run."""
    if not REQUIRE_FULL_SUITE or session.config.option.collectonly:
        return
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller sees every report and judges the whole run
    problems = [f"skipped: {nodeid}" for nodeid in _SKIPPED]
    problems += [f"no {kind} test ran" for kind, count in _RAN.items() if count == 0]
    if problems:
        print(
            "\nThe full suite is required here (GEOPLUNGE_REQUIRE_FULL_SUITE=1):\n  "
            + "\n  ".join(problems)
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def skip_unless_optional(reason: str) -> None:
    """Skip a test whose tool is missing, except where the full suite is required."""
    if REQUIRE_FULL_SUITE:
        pytest.fail(f"{reason} (GEOPLUNGE_REQUIRE_FULL_SUITE=1)")
    pytest.skip(reason)


def database_params() -> list:
    params = [pytest.param("sqlite", id="sqlite")]
    if TEST_DATABASE_URL:
        params.append(pytest.param(TEST_DATABASE_URL, id="postgresql", marks=pytest.mark.postgres))
    return params


# Every test builds its own app, and Werkzeug compiles each URL rule's builder anew for each app
# (two small functions per rule, from an AST: about 60 ms of an app's 100). The function depends
# only on the rule's text, its parsed parts and its defaults, and is handed the rule when called,
# so the suite compiles each one once. Only the tests do this; the app is unchanged.
_BUILDERS: dict[tuple[object, ...], Callable[..., tuple[str, str]]] = {}
_compile_builder = Rule._compile_builder


def _compile_builder_once(
    self: Rule, append_unknown: bool = True
) -> Callable[..., tuple[str, str]]:
    key = (
        self.rule,
        tuple(self._trace),
        tuple(sorted((k, repr(v)) for k, v in (self.defaults or {}).items())),
        append_unknown,
    )
    builder = _BUILDERS.get(key)
    if builder is None:
        builder = _BUILDERS[key] = _compile_builder(self, append_unknown)
    return builder


Rule._compile_builder = _compile_builder_once  # type: ignore[method-assign]


# Loading and checking the deck is 30 ms of an app's 50 (most of it the map's areas), and the
# suite builds thousands of apps on the same files. The deck is frozen, so the apps built on the
# project's own data share one; an app given other files (a test of a broken row) loads and checks
# them as the app does. Only the tests do this; the app is unchanged.
_load_deck = web_package.load_deck
_PROJECT_DECK: list[Deck] = []


def _load_deck_once(data_dir: Path | str = DATA_DIR) -> Deck:
    if Path(data_dir).resolve() != DATA_DIR.resolve():
        return _load_deck(data_dir)
    if not _PROJECT_DECK:
        _PROJECT_DECK.append(_load_deck(data_dir))
    return _PROJECT_DECK[0]


web_package.load_deck = _load_deck_once  # type: ignore[assignment]


def make_test_config(database: str, tmp_path) -> dict:
    url = f"sqlite:///{tmp_path / 'test.db'}" if database == "sqlite" else database
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret-" + uuid.uuid4().hex,
        "SQLALCHEMY_DATABASE_URI": url,
        "RATELIMIT_ENABLED": False,
        "RATELIMIT_STORAGE_URI": "memory://",
        # Off: a fit in a background thread would race the test's own database work (the test of
        # the background runner turns it on and waits for it).
        "FIT_IN_BACKGROUND": False,
        # A cheap hash for the accounts tests make through the pages (scrypt costs 165 ms each
        # here); the tests of the real one ask for scrypt with app_config.
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
    }


@pytest.fixture
def at_midday() -> Iterator[dt.datetime]:
    """The test runs at noon UTC tomorrow, the clock ticking on from there: well away from the
    4 a.m. start of a study day and from midnight, whenever the suite runs. (Answers "an hour
    ago" are then on the same study day.) Ask for it before the fixtures that make users."""
    noon = dt.datetime.combine(
        dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1), dt.time(12), tzinfo=dt.UTC
    )
    with time_machine.travel(noon, tick=True):
        yield noon


@pytest.fixture(scope="session")
def _postgres_made() -> Iterator[set[str]]:
    """The PostgreSQL databases whose tables this process has made; they are dropped at the end,
    since the server keeps whatever a run leaves."""
    made: set[str] = set()
    yield made
    for url in made:
        engine = create_engine(url)
        try:
            db.metadata.drop_all(engine)
        finally:
            engine.dispose()


def _empty_postgres(made: set[str], url: str) -> None:
    """Start a test on empty tables: the first time (or when a test dropped or added tables), drop
    and make them all; after that, delete every row and restart the ids, which takes about 10 ms
    where dropping and making the tables takes about 250 ms (issue 20: CI under 15 minutes)."""
    expected = set(db.metadata.tables)
    if url in made and set(inspect(db.engine).get_table_names()) == expected:
        statements = [
            f'DELETE FROM "{table.name}"' for table in reversed(db.metadata.sorted_tables)
        ]
        with db.engine.connect() as connection:
            sequences = connection.execute(
                text(
                    "SELECT sequence_name FROM information_schema.sequences"
                    " WHERE sequence_schema = current_schema()"
                )
            ).scalars()
            statements += [f'ALTER SEQUENCE "{name}" RESTART' for name in sequences]
        try:
            with db.engine.begin() as connection:
                connection.exec_driver_sql("; ".join(statements))
            return
        except DBAPIError:
            pass  # a table the deletes cannot empty in this order: make them all again
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    db.create_all()
    made.add(url)


@pytest.fixture(scope="session")
def _sqlite_schema(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file with every table and no rows, made once per process: a test's database
    is a copy of it (a file copy takes about 1 ms where making the tables takes about 40)."""
    folder = tmp_path_factory.mktemp("schema")
    application = create_app(make_test_config("sqlite", folder))
    with application.app_context():
        db.create_all()
        db.engine.dispose()
    return folder / "test.db"


@pytest.fixture(params=database_params())
def app(
    request: pytest.FixtureRequest, tmp_path, _postgres_made: set[str], _sqlite_schema: Path
) -> Iterator[Flask]:
    """The app on a fresh database: SQLite always, PostgreSQL too where TEST_DATABASE_URL is set."""
    marker = request.node.get_closest_marker("app_config")
    overrides = marker.kwargs if marker else {}
    if request.param == "sqlite":
        shutil.copyfile(_sqlite_schema, tmp_path / "test.db")  # a new file in tmp_path
    application = create_app({**make_test_config(request.param, tmp_path), **overrides})
    with application.app_context():
        if request.param != "sqlite":
            _empty_postgres(_postgres_made, request.param)
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    return app.test_cli_runner()


CSRF_INPUT = re.compile(
    r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"'
)


def csrf_token(client: FlaskClient, url: str) -> str:
    """The CSRF token of the form on ``url``, as a browser would read it."""
    html = client.get(url).get_data(as_text=True)
    match = CSRF_INPUT.search(html)
    assert match, f"no CSRF token on {url}"
    return match.group(1) or match.group(2)


#: A cheap hash of the tests' password "correct horse", for users made in bulk or logging in a lot
#: (the app's own scrypt is slow on purpose).
FAST_HASH = generate_password_hash("correct horse", method="pbkdf2:sha256:1")


def make_user(
    app: Flask,
    username: str = "student1",
    password: str = "correct horse",
    role: Role = Role.STUDENT,
    email: str | None = None,
    fast_hash: bool = True,
    is_admin: bool = False,
    managed_by_id: int | None = None,
) -> User:
    """Create a user directly in the database (test factory). By default the password is stored
    with a cheap hash rather than the app's scrypt, which is slow on purpose (the password works
    the same; ``fast_hash=False`` stores it as the app does). ``is_admin`` makes a school admin
    (give it ``role=Role.TEACHER``); ``managed_by_id`` is the teacher who made the account from a
    list of names (None: the student signed up themselves)."""
    with app.app_context():
        user = User(
            username=username,
            username_key=User.key_for(username),
            role=role,
            email=email,
            is_admin=is_admin,
            managed_by_id=managed_by_id,
        )
        if fast_hash:
            user.password_hash = generate_password_hash(password, method="pbkdf2:sha256:1")
        else:
            user.set_password(password)
        db.session.add(user)
        db.session.commit()
        db.session.refresh(user)
        db.session.expunge(user)
        return user


@dataclass
class AuthActions:
    """Log in and out through the real forms, CSRF token included."""

    client: FlaskClient

    def login(
        self,
        username: str = "student1",
        password: str = "correct horse",
        next_url: str | None = None,
    ):
        url = "/auth/login" + (f"?next={next_url}" if next_url else "")
        token = csrf_token(self.client, url)
        return self.client.post(
            url, data={"username": username, "password": password, "csrf_token": token}
        )

    def logout(self):
        token = csrf_token(self.client, "/")
        return self.client.post("/auth/logout", data={"csrf_token": token})

    def signup(
        self,
        username: str,
        password: str = "correct horse",
        role: str = "student",
        email: str = "",
        confirm: str | None = None,
    ):
        token = csrf_token(self.client, "/auth/signup")
        return self.client.post(
            "/auth/signup",
            data={
                "username": username,
                "password": password,
                "confirm": password if confirm is None else confirm,
                "role": role,
                "email": email,
                "csrf_token": token,
            },
        )


def client_for(app: Flask, username: str | None) -> FlaskClient:
    """A new client of ``app``, logged in as ``username`` through the real form (None: anonymous)."""
    client = app.test_client()
    if username is not None:
        assert AuthActions(client).login(username).status_code == 302
        client.get("/")  # shows (and so clears) the "Hello" message
    return client


@pytest.fixture
def auth(client: FlaskClient) -> AuthActions:
    return AuthActions(client)


@pytest.fixture
def student(app: Flask) -> User:
    return make_user(app, "student1", role=Role.STUDENT)


@pytest.fixture
def teacher(app: Flask) -> User:
    return make_user(app, "teacher1", role=Role.TEACHER, email="teacher@example.org")


@pytest.fixture
def player(app: Flask, client: FlaskClient, auth: AuthActions, student: User) -> FlaskClient:
    """A client logged in as the student ``student1``."""
    auth.login()
    return client
