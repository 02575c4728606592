"""Error pages that need no database (issue 18, section 2).

While the database restarts, the app answers with its own "we'll be right back" page (503, with
Retry-After), rendered without a single query, and a form that was being sent can be sent again
as it was, so a student's answer is not lost. A crash after a failed statement still gets the
site's 500 page: the transaction is rolled back first and the page sends no SQL either.
"""

from __future__ import annotations

import html
import re
import sqlite3

import psycopg
import pytest
from flask import after_this_request
from flask_login import current_user
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError
from werkzeug.datastructures import MultiDict

from tests.conftest import csrf_token
from tests.web import test_dashing as dashing
from tests.web.test_security import assert_strict_page
from trainer.web import memory
from trainer.web.errors import RETRY_AFTER
from trainer.web.extensions import db
from trainer.web.play import dashing as dashing_views

HIDDEN = re.compile(r'<input type="hidden" name="([^"]*)" value="([^"]*)">')


class Statements:
    """The SQL statements the app sends once ``counting`` is on."""

    def __init__(self, app) -> None:
        with app.app_context():
            self.engine = db.engine
        self.counting = False
        self.sent: list[str] = []
        event.listen(self.engine, "before_cursor_execute", self._seen)

    def _seen(self, conn, cursor, statement, parameters, context, executemany) -> None:
        if self.counting:
            self.sent.append(statement)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._seen)


@pytest.fixture
def statements(app):
    counter = Statements(app)
    yield counter
    counter.close()


class Outage:
    """The database out of reach, as while PostgreSQL restarts: every connection is refused."""

    def __init__(self, app) -> None:
        with app.app_context():
            self.engine = db.engine
        self.attempts = 0

    def _refuse(self, dialect, connection_record, cargs, cparams):
        self.attempts += 1
        if dialect.name == "sqlite":
            raise sqlite3.OperationalError("unable to open database file")
        raise psycopg.OperationalError("connection failed: Connection refused")

    def __enter__(self) -> Outage:
        self.engine.dispose()
        event.listen(self.engine, "do_connect", self._refuse)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(self.engine, "do_connect", self._refuse)
        self.engine.dispose()


def assert_unavailable(response) -> str:
    assert response.status_code == 503, response.get_data(as_text=True)[:500]
    assert response.headers["Retry-After"] == str(RETRY_AFTER)
    page = response.get_data(as_text=True)
    assert "right back" in page and "Try again" in page
    assert 'href="/static/css/site.css?v=' in page, "in the site's style"
    assert_strict_page(page)
    return page


def test_a_page_while_the_database_is_out_of_reach_is_a_styled_503(player, app):
    with Outage(app) as outage:
        response = player.get("/study/?focus=map")
        page = assert_unavailable(response)
        assert outage.attempts == 1, "the error page itself never asked the database"
    assert 'href="/study/?focus=map"' in page, "Try again opens the same page"


def test_a_json_client_gets_503_json_with_retry_after(player, app):
    with Outage(app):
        response = player.get("/study/", headers={"Accept": "application/json"})
    assert response.status_code == 503 and response.is_json
    assert response.headers["Retry-After"] == str(RETRY_AFTER)
    assert "right back" in response.json["error"]


def test_a_form_sent_while_the_database_is_out_of_reach_can_be_sent_again_as_it_was(player, app):
    url = dashing.deal(player, "practice")
    data = dashing.call_data(app, url)
    data["name-0"] = data["name-0"] + ' "<b>&'  # still the state's name, with characters to escape
    data["password"] = "correct horse"  # a password is never written into a page
    token = csrf_token(player, url)
    with Outage(app):
        response = player.post(url, data={"csrf_token": token, **data})
        page = assert_unavailable(response)
    assert "&lt;b&gt;&amp;" in page and "<b>&" not in page, "the fields are escaped"
    fields = MultiDict([(html.unescape(n), html.unescape(v)) for n, v in HIDDEN.findall(page)])
    assert fields["csrf_token"] == token
    assert "password" not in fields
    assert {k: fields[k] for k in data if k != "password"} == {
        k: v for k, v in data.items() if k != "password"
    }
    assert re.search(rf'<form method="post" action="{re.escape(url)}">', page)
    # Once the database is back, the page's "Try again" sends the same call: it counts.
    assert player.post(url, data=fields).status_code == 302
    assert dashing.stored(app, url).call is not None


def test_a_query_that_loses_its_connection_gives_the_503_page_without_more_sql(
    player, app, monkeypatch, statements
):
    def lost(*args, **kwargs):
        statements.counting = True
        raise OperationalError(
            "SELECT ...",
            {},
            Exception("server closed the connection unexpectedly"),
            connection_invalidated=True,
        )

    monkeypatch.setattr(dashing_views, "history", lost)
    assert_unavailable(player.get("/play/dashing-states/"))
    assert statements.sent == [], "the 503 page sends no SQL"


def test_answers_that_keep_conflicting_give_the_503_page(player, app, monkeypatch):
    def busy(*args, **kwargs):
        raise memory.Busy("the answer could not be saved; please try again")

    monkeypatch.setattr(dashing_views, "history", busy)
    assert_unavailable(player.get("/play/dashing-states/"))


@pytest.fixture
def crashing_app(app):
    """The app with two views that fail as real ones can, registered before any request."""
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/_test/failed-statement")
    def failed_statement():
        _ = current_user.username  # the signed-in user, loaded as in any view
        db.session.commit()  # and expired, as after any commit: base.html would load it again
        db.session.execute(text("SELECT * FROM no_such_table"))
        return "unreachable"

    @app.get("/_test/lost-after")
    def lost_after():
        @after_this_request
        def fail(response):
            raise OperationalError(
                "UPDATE ...", {}, Exception("terminating connection due to administrator command")
            )

        return "done"

    return app


def test_the_500_page_after_a_failed_statement_rolls_back_and_sends_no_sql(
    crashing_app, auth, student, statements
):
    """On PostgreSQL a failed statement aborts the transaction: a 500 page that loaded the user
    again failed too, and gunicorn sent its bare page. Now it renders, and asks nothing."""
    client = auth.client
    auth.login()

    @event.listens_for(statements.engine, "handle_error")
    def start_counting(context):
        statements.counting = True

    try:
        response = client.get("/_test/failed-statement")
    finally:
        event.remove(statements.engine, "handle_error", start_counting)
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Something went wrong" in page and "no_such_table" not in page
    assert_strict_page(page)
    assert statements.sent == [], "the 500 page sends no SQL"


def test_a_connection_lost_after_the_view_is_still_the_503_page(crashing_app, auth, student):
    auth.login()
    assert_unavailable(auth.client.get("/_test/lost-after"))


@pytest.mark.parametrize("path", ["//evil.example/x", "/\\evil.example/x"])
def test_try_again_never_leaves_the_site(player, app, path):
    with Outage(app):
        page = assert_unavailable(player.get("/", environ_overrides={"PATH_INFO": path}))
    link = re.search(r'<a class="button button--big" href="([^"]*)"', page).group(1)
    assert link.startswith("/") and not link.startswith("//") and "\\" not in link
