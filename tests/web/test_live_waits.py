"""Long-polling for a live table's page without a WebSocket (issue 22: "falling back to
long-polling where a school proxy blocks WebSockets"): the version endpoint's ``?after=N&wait=1``
is held until the table changes (L-T5), in the process that served the move or, through Redis, in
another one; a bad ask is refused; nothing is kept for tables no one waits for.

A held ask is given a long wait here (:data:`LONG`) and the test's thread waits far less for it:
an ask still held then was not woken by the change, which is the failure looked for."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.live_support import INDEX, join, open_table, post, state_of, table_row
from trainer.web.extensions import db
from trainer.web.live.waits import Board

pytestmark = pytest.mark.usefixtures("live_seeds")

#: The server's longest hold in these tests (s): never reached by an ask that is woken.
LONG = 120.0
#: How long the test waits for a held ask to come back after the change (s).
BACK = 15.0


def held(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """Run ``call`` in a thread (it blocks); its result lands in the list."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    return thread, out


def until_waiting(board: Board, tables: int = 1) -> None:
    """Until the held ask is registered on the board (it is, or the test fails)."""
    event = threading.Event()
    for _ in range(200):
        if board.waiting() >= tables:
            return
        event.wait(0.02)
    raise AssertionError("the ask was never held")


def test_the_board_wakes_a_waiter_and_then_forgets_the_table():
    board = Board()
    thread, out = held(lambda: board.wait(7, after=3, timeout=LONG, current=lambda: 3))
    until_waiting(board)
    board.heard(8, 9)  # another table: no one wakes
    board.heard(7, 3)  # not newer than what the page shows
    thread.join(0.2)
    assert thread.is_alive()
    board.heard(7, 4)
    thread.join(BACK)
    assert not thread.is_alive() and out == [None]
    assert board.waiting() == 0


def test_a_change_committed_before_the_wait_began_is_not_waited_for():
    board = Board()
    thread, _out = held(lambda: board.wait(7, after=3, timeout=LONG, current=lambda: 4))
    thread.join(BACK)
    assert not thread.is_alive() and board.waiting() == 0


def test_a_quiet_table_answers_after_the_timeout():
    board = Board()
    board.wait(7, after=3, timeout=0.05, current=lambda: 3)
    assert board.waiting() == 0


def test_a_held_ask_comes_back_with_the_move(app: Flask, school, players):
    ana, ben = players["ana"], players["ben"]
    app.config["LIVE_WAIT_SECONDS"] = LONG
    code = open_table(ana, game="play-the-ranks", players="2")
    join(ben, code)
    version = table_row(app, code).version
    board = app.extensions["live_waits"].board
    url = f"{INDEX}{code}/version?after={version}&wait=1"
    thread, out = held(lambda: ben.get(url))
    until_waiting(board)
    post(ana, code, "start", version=version)
    thread.join(BACK)
    assert not thread.is_alive(), "the start did not wake Ben's page"
    answer = out[0].get_json()
    assert answer["version"] == table_row(app, code).version > version
    assert answer["status"] == "playing"
    assert board.waiting() == 0
    # A page behind the table is answered at once, without waiting.
    now = ben.get(f"{INDEX}{code}/version?after={version}&wait=1").get_json()
    assert now["version"] == answer["version"]
    # A move wakes the other seat's held ask too.
    state = state_of(app, code)
    mover, other = (ana, ben) if state.current_player() == 0 else (ben, ana)
    version = table_row(app, code).version
    thread, out = held(lambda: other.get(f"{INDEX}{code}/version?after={version}&wait=1"))
    until_waiting(board)
    post(mover, code, "move", ply=table_row(app, code).ply, action=state.legal_actions()[0])
    thread.join(BACK)
    assert not thread.is_alive()
    assert out[0].get_json()["version"] == table_row(app, code).version > version


@pytest.mark.parametrize("after", ["", "x", "-1", "1.5", "9" * 12])
def test_a_bad_ask_is_refused_and_holds_nothing(app: Flask, school, players, after):
    ana = players["ana"]
    code = open_table(ana, game="play-the-ranks", players="2")
    response = ana.get(f"{INDEX}{code}/version?after={after}&wait=1")
    assert response.status_code == 400 and "after" in response.get_json()["error"]
    assert app.extensions["live_waits"].board.waiting() == 0


def test_a_stranger_cannot_wait_on_a_table(app: Flask, school, players):
    code = open_table(players["ana"], game="play-the-ranks", players="2")
    response = players["dee"].get(f"{INDEX}{code}/version?after=0&wait=1")
    assert response.status_code == 404
    assert players["ben"].get(f"{INDEX}ZZZZZZ/version?after=0&wait=1").status_code == 404
    assert app.extensions["live_waits"].board.waiting() == 0


def test_a_move_through_one_process_wakes_an_ask_held_by_another(app: Flask, school, players):
    """With REDIS_URL set, two apps (two gunicorn workers' worth): Ben's ask is held by the second,
    Ana starts the table through the first; the second hears it through Redis and answers."""
    import redis

    from tests.conftest import skip_unless_optional
    from trainer.web import create_app

    url = "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url).ping()
    except redis.exceptions.ConnectionError:
        skip_unless_optional("Redis is not running on 127.0.0.1:6379")
    config = {
        **app.config,
        "REDIS_URL": url,
        "SOCKETIO_CHANNEL": f"test-{uuid.uuid4().hex}",
        "LIVE_WAIT_SECONDS": LONG,
    }
    first, second = create_app(config), create_app(config)
    cookie = app.config["SESSION_COOKIE_NAME"]

    def client(of: Flask, name: str) -> FlaskClient:
        made = of.test_client()
        made.set_cookie(cookie, players[name].get_cookie(cookie).value)
        return made

    ana, ben = client(first, "ana"), client(second, "ben")
    try:
        code = open_table(ana, game="play-the-ranks", players="2")
        join(players["ben"], code)
        version = table_row(app, code).version
        board = second.extensions["live_waits"].board
        # The second process listens to Redis from its first held ask on; wait for that ask to be
        # answered (it is held briefly while the listener is not yet subscribed), then hold one.
        event = threading.Event()
        for _ in range(200):
            if board.hears_everything:
                break
            ben.get(f"{INDEX}{code}/version?after={version}&wait=1")
            event.wait(0.05)
        assert board.hears_everything
        thread, out = held(lambda: ben.get(f"{INDEX}{code}/version?after={version}&wait=1"))
        until_waiting(board)
        post(ana, code, "start", version=version)  # through the first app
        thread.join(BACK)
        assert not thread.is_alive(), "the first process's start did not reach the second's ask"
        assert out[0].get_json()["version"] == table_row(app, code).version > version
    finally:
        for extra in (first, second):
            with extra.app_context():
                db.engine.dispose()
