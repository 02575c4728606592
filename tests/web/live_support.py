"""What the live tables' Flask-client tests share (issue 22): opening, joining and starting a table
through its forms, reading the table, its seats and each seat's own round back, a snapshot of what
a refused request must leave as it was, and a table written in SQL for the migration tests. The
class of students and their logged-in clients are the ``school`` and ``players`` fixtures of
tests/web/conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Select, inspect, select, text
from sqlalchemy.orm import InstrumentedAttribute

from tests.conftest import csrf_token
from trainer.games import Params, make_game, replay
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import LiveSeat, LiveTable, ReviewLog

INDEX = "/play/live/"

T = TypeVar("T")


def open_table(client: FlaskClient, game="geoplunge-51", players="3", team_size="1") -> str:
    response = client.post(
        INDEX,
        data={
            "csrf_token": csrf_token(client, INDEX),
            "game": game,
            "players": players,
            "team_size": team_size,
            "level": "easy",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location.split("?")[0].rsplit("/", 1)[1]


def join(client: FlaskClient, code: str):
    return client.post(INDEX + "join", data={"csrf_token": csrf_token(client, INDEX), "code": code})


def post(client: FlaskClient, code: str, what: str, **fields):
    url = f"{INDEX}{code}"
    data = {"csrf_token": csrf_token(client, url), **{k: str(v) for k, v in fields.items()}}
    return client.post(f"{url}/{what}", data=data)


def start_table(app: Flask, host: FlaskClient, guests: list[FlaskClient], **table: str) -> str:
    """``host`` opens a table (``table``: the form's game, players, team size), each of ``guests``
    joins it, and the host starts it; its code."""
    code = open_table(host, **table)
    for guest in guests:
        assert join(guest, code).status_code == 302
    assert post(host, code, "start", version=table_row(app, code).version).status_code == 302
    assert table_row(app, code).status == "playing"
    return code


def page(client: FlaskClient, code: str) -> str:
    return client.get(INDEX + code).get_data(as_text=True)


def table_row(app: Flask, code: str) -> LiveTable:
    with app.app_context():
        row = db.session.execute(select(LiveTable).where(LiveTable.code == code)).scalar_one()
        db.session.expunge(row)
        return row


def seats_of(app: Flask, code: str) -> list[tuple[int, int | None, bool, str | None]]:
    with app.app_context():
        return [
            (s.seat, s.user_id, s.computer, s.result)
            for s in db.session.execute(
                select(LiveSeat)
                .join(LiveTable, LiveTable.id == LiveSeat.table_id)
                .where(LiveTable.code == code)
                .order_by(LiveSeat.seat)
            ).scalars()
        ]


def state_of(app: Flask, code: str, viewer: int = 0):
    row = table_row(app, code)
    with app.app_context():
        game = make_game(row.game, get_deck(), Params(row.players, row.team_size), viewer=viewer)
    return replay(game, row.seed, row.actions)


def seat_rows(
    app: Flask, code: str, model: Any, column: InstrumentedAttribute[int | None]
) -> dict[int, Any]:
    """Each seat's own round or side of a race or duel (a ``model`` row, its id in the seat's
    ``column``), by seat."""
    with app.app_context():
        rows = db.session.execute(
            select(LiveSeat.seat, model)
            .join(model, model.id == column)
            .join(LiveTable, LiveTable.id == LiveSeat.table_id)
            .where(LiveTable.code == code)
        ).all()
        for _seat, row in rows:
            db.session.expunge(row)
        return {seat: row for seat, row in rows}


def read_now(app: Flask, code: str, read: Callable[[LiveTable], T]) -> tuple[LiveTable, T]:
    """The table and what ``read`` reads of it, as a request reads them now, detached: what a page
    that read the table now holds when its request reaches a write later."""
    with app.test_request_context():
        table = db.session.execute(select(LiveTable).where(LiveTable.code == code)).scalar_one()
        found = read(table)
        db.session.expunge_all()
    return table, found


def review_rows(app: Flask, user_id: int) -> list[ReviewLog]:
    """The student's review log, oldest first."""
    with app.app_context():
        rows = (
            db.session.execute(
                select(ReviewLog).where(ReviewLog.student_id == user_id).order_by(ReviewLog.id)
            )
            .scalars()
            .all()
        )
        for row in rows:
            db.session.expunge(row)
        return list(rows)


def snapshot_of(app: Flask, *queries: Select[Any]) -> tuple[list[tuple[Any, ...]], ...]:
    """The rows each of ``queries`` reads, in an order of their own: what a refused request must
    leave as it was."""
    with app.app_context():
        return tuple(
            sorted(map(tuple, db.session.execute(query).all()), key=repr) for query in queries
        )


# --- the migration tests ---------------------------------------------------------------------


def write_open_table(game: str) -> int:
    """An open table of ``game`` (code ABC234) with its host ana at seat 0 and seat 1 free, written
    in SQL into the schema of the revision reached; ana's id. Inside an app's context."""
    with db.engine.begin() as connection:
        connection.execute(
            text(
                'INSERT INTO "user" (username, username_key, password_hash, role) '
                "VALUES ('ana', 'ana', 'x', 'student')"
            )
        )
        host = connection.execute(text('SELECT id FROM "user"')).scalar_one()
        connection.execute(
            text(
                "INSERT INTO live_table (code, host_id, game, players, team_size, level, "
                "status, actions, ply, version, covered, created_at, updated_at) VALUES "
                "('ABC234', :host, :game, 2, 1, 'easy', 'open', '[]', 0, 0, '[]', "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"host": host, "game": game},
        )
        table = connection.execute(text("SELECT id FROM live_table")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO live_seat (table_id, seat, user_id, computer, drill) VALUES "
                "(:table, 0, :host, FALSE, FALSE), (:table, 1, NULL, FALSE, FALSE)"
            ),
            {"table": table, "host": host},
        )
    return int(host)


def seat_users() -> list[tuple[int, int]]:
    """Each seat in the database and its student, as written in SQL."""
    with db.engine.connect() as connection:
        return [tuple(r) for r in connection.execute(text("SELECT seat, user_id FROM live_seat"))]


def seat_columns() -> set[str]:
    """The columns the live_seat table has at the revision reached."""
    return {c["name"] for c in inspect(db.engine).get_columns("live_seat")}


def seat_foreign_key(referred: str) -> dict[str, Any]:
    """The live_seat table's one foreign key to the table ``referred``."""
    [key] = [
        fk
        for fk in inspect(db.engine).get_foreign_keys("live_seat")
        if fk["referred_table"] == referred
    ]
    return dict(key)
