"""Live tables through the Flask client and Socket.IO's test client (issue 22): classmates open,
join, sit, start and play a card game to the end, each on their own client; every refusal (a
stranger's code, out of turn, a stale page, not the host) changes nothing; no seat's page names a
card another seat holds; a move reaches the other seats' sockets."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import csrf_token
from tests.web.live_support import (
    INDEX,
    join,
    open_table,
    post,
    seats_of,
    snapshot_of,
    state_of,
    table_row,
)
from tests.web.test_security import assert_strict_page
from trainer.cards import Category
from trainer.web.extensions import db
from trainer.web.models import LiveSeat, LiveTable

# Every table here is dealt from known seeds (G9): its cards are the same every run.
pytestmark = pytest.mark.usefixtures("live_seeds")


def snapshot(app: Flask) -> tuple:
    return snapshot_of(
        app,
        select(LiveTable.code, LiveTable.status, LiveTable.version, LiveTable.ply),
        select(LiveSeat.table_id, LiveSeat.seat, LiveSeat.user_id, LiveSeat.computer),
    )


def test_classmates_open_join_and_start_a_table(app, school, players):
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana)
    lobby = ana.get(INDEX + code).get_data(as_text=True)
    assert code in lobby and "Start the game" in lobby
    assert_strict_page(lobby)
    # A code is typed as a child types it: lower case, with a space or a dash.
    typed = f"{code[:3].lower()} {code[3:].lower()}"
    assert join(ben, typed).status_code == 302
    assert [(s, u) for s, u, _c, _r in seats_of(app, code)] == [
        (0, school["ana"]),
        (1, school["ben"]),
        (2, None),
    ]
    page = ben.get(INDEX + code).get_data(as_text=True)
    assert "ana" in page and "Waiting for ana to start the game" in page
    # Only the host starts it; the free seat goes to the computer.
    version = table_row(app, code).version
    refused = post(ben, code, "start", version=version)
    assert refused.status_code == 302 and table_row(app, code).status == "open"
    assert post(ana, code, "start", version=version).status_code == 302
    row = table_row(app, code)
    assert row.status == "playing" and row.seed == 9101
    assert [c for _s, _u, c, _r in seats_of(app, code)] == [False, False, True]


def test_a_stranger_or_a_made_up_code_finds_no_table_and_changes_nothing(app, school, players):
    """L-T1."""
    code = open_table(players["ana"])
    before = snapshot(app)
    for client, typed in (
        (players["dee"], code),
        (players["ben"], "ZZZZZZ"),
        (players["ben"], "K!"),
    ):
        response = join(client, typed)
        assert response.status_code == 400
        body = response.get_data(as_text=True)
        assert "No open table has that code" in body or "6 letters and digits" in body
    assert snapshot(app) == before
    # Its pages are as unknown to a student who does not sit at it as a made-up code.
    for what in ("", "/version"):
        assert players["dee"].get(f"{INDEX}{code}{what}").status_code == 404
        assert players["ben"].get(f"{INDEX}{code}{what}").status_code == 404
    assert post(players["dee"], code, "move", ply=0, action=0).status_code == 404
    assert snapshot(app) == before


def test_lobby_changes_from_a_stale_page_change_nothing(app, school, players):
    """L-T2."""
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, players="4")
    stale = table_row(app, code).version
    assert join(ben, code).status_code == 302
    before = snapshot(app)
    # The host's page was one change ago: giving a seat to the computer or starting is refused.
    post(ana, code, "computer", version=stale, seat=3, computer="y")
    post(ana, code, "start", version=stale)
    assert snapshot(app) == before
    version = table_row(app, code).version
    # Ben moves to seat 3; a seat taken, or no seat at all, is refused.
    post(ben, code, "sit", version=version, seat=3)
    assert [u for _s, u, _c, _r in seats_of(app, code)] == [
        school["ana"],
        None,
        None,
        school["ben"],
    ]
    before = snapshot(app)
    version = table_row(app, code).version
    post(ben, code, "sit", version=version, seat=0)
    post(ben, code, "sit", version=version, seat=9)
    post(ben, code, "computer", version=version, seat=1, computer="y")  # not the host
    post(ana, code, "computer", version=version, seat=3, computer="y")  # ben sits there
    assert snapshot(app) == before


def test_three_classmates_and_the_computer_play_geoplunge_51_to_the_end(app, school, players):
    """L-T3, L-T4."""
    ana, ben, cai = players["ana"], players["ben"], players["cai"]
    code = open_table(ana, players="4")
    join(ben, code)
    join(cai, code)
    post(ana, code, "start", version=table_row(app, code).version)
    by_seat = {0: ana, 1: ben, 2: cai}
    names = {0: "ana", 1: "ben", 2: "cai"}
    moves = 0
    while True:
        row = table_row(app, code)
        if row.status == "over":
            break
        state = state_of(app, code)
        seat = state.current_player()
        assert seat in by_seat, "the computer's seat is never left to move"
        # Every page of the table names no card another seat holds.
        for viewer, client in by_seat.items():
            html = client.get(INDEX + code).get_data(as_text=True)
            deck = state.game.deck
            hidden = {deck[p].name for p in state.hidden_from(viewer)}
            public = " ".join(event.text for event in state.log)
            for name in hidden - {n for n in (c.name for c in deck) if n in public}:
                assert not re.search(rf"(?<!West )\b{re.escape(name)}\b", html), name
            if viewer == seat:
                assert "Your turn." in html
            else:
                assert f"Waiting for {names[seat]} to play" in html
        if moves % 7 == 0:
            # Out of turn, and from a page a move ago: refused, nothing changed.
            other = by_seat[(seat + 1) % 3]
            before = snapshot(app)
            post(other, code, "move", ply=row.ply, action=state.legal_actions()[0])
            post(by_seat[seat], code, "move", ply=row.ply - 1, action=state.legal_actions()[0])
            assert snapshot(app) == before
        action = state.legal_actions()[0]
        response = post(by_seat[seat], code, "move", ply=row.ply, action=action)
        assert response.status_code == 302
        assert table_row(app, code).ply > row.ply
        moves += 1
        assert moves < 400
    results = [r for _s, _u, _c, r in seats_of(app, code)]
    assert set(results) <= {"drawn", "lost", "won"} and "won" in results
    final = state_of(app, code)
    winners = set(final.winners())
    for seat, client in by_seat.items():
        html = client.get(INDEX + code).get_data(as_text=True)
        assert ("You won!" in html) == (seat in winners)
    # Each seat's log speaks to it: its own moves are "You play ...", the others' by name.
    assert "You play" in by_seat[1].get(INDEX + code).get_data(as_text=True)
    assert "ben plays" in by_seat[0].get(INDEX + code).get_data(as_text=True)
    # A move sent to a finished game changes nothing.
    before = snapshot(app)
    post(ana, code, "move", ply=table_row(app, code).ply, action=0)
    assert snapshot(app) == before


def test_a_move_reaches_the_other_seats_socket(app, school, players):
    """L-T5."""
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="play-the-ranks", players="2")
    join(ben, code)
    socketio = app.extensions["socketio"]
    listener = socketio.test_client(app, flask_test_client=ben)
    assert listener.is_connected()
    reply = listener.emit("watch", {"code": code}, callback=True)
    assert reply["ok"] is True
    listener.get_received()
    post(ana, code, "start", version=table_row(app, code).version)
    heard = [m for m in listener.get_received() if m["name"] == "changed"]
    assert heard and heard[-1]["args"][0] == {"code": code, "version": table_row(app, code).version}
    # The notice holds nothing but the table's code and version: no card, no move.
    state = state_of(app, code)
    seat = state.current_player()
    mover = ana if seat == 0 else ben
    post(mover, code, "move", ply=table_row(app, code).ply, action=state.legal_actions()[0])
    heard = [m for m in listener.get_received() if m["name"] == "changed"]
    assert [m["args"][0]["version"] for m in heard] == [table_row(app, code).version]
    # A student who does not sit at the table cannot listen to it; no one signed out connects.
    stranger = socketio.test_client(app, flask_test_client=players["dee"])
    assert stranger.emit("watch", {"code": code}, callback=True) == {"ok": False}
    assert stranger.emit("watch", {"code": 5}, callback=True) == {"ok": False}
    anonymous = socketio.test_client(app, flask_test_client=app.test_client())
    assert not anonymous.is_connected()


def test_the_version_endpoint_says_when_to_fetch_the_table_again(app, school, players):
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="play-the-ranks", players="2")
    before = ana.get(f"{INDEX}{code}/version").get_json()
    join(ben, code)
    after = ana.get(f"{INDEX}{code}/version").get_json()
    assert after["version"] == before["version"] + 1 and after["status"] == "open"


def test_the_host_closes_a_table_and_a_guest_leaves_one(app, school, players):
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana)
    join(ben, code)
    post(ben, code, "leave", version=table_row(app, code).version)
    assert [u for _s, u, _c, _r in seats_of(app, code)][1] is None
    post(ana, code, "leave", version=table_row(app, code).version)
    assert table_row(app, code).status == "closed"
    assert join(ben, code).status_code == 400


def test_index_lists_my_tables_and_refuses_a_bad_form(app, school, players):
    ana = players["ana"]
    code = open_table(ana, game="play-the-ranks", players="2")
    page = ana.get(INDEX).get_data(as_text=True)
    assert code in page and "Play with classmates" in page
    assert_strict_page(page)
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(LiveTable)).scalar_one()
    response = ana.post(
        INDEX,
        data={
            "csrf_token": csrf_token(ana, INDEX),
            "game": "chess",
            "players": "3",
            "level": "easy",
        },
    )
    assert response.status_code == 400
    response = ana.post(
        INDEX,
        data={
            "csrf_token": csrf_token(ana, INDEX),
            "game": "geoplunge-51",
            "players": "5",
            "team_size": "2",
            "level": "easy",
        },
    )
    assert response.status_code == 400 and "teams" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(LiveTable)).scalar_one() == count


def test_rankings_in_a_move_are_not_asked_at_a_live_table(app, school, players):
    """Without drill (L-T6), a live table is played with the rankings shown: a GeoPlunge 51 move
    is one button per ranking, with no number to type."""
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, players="2")
    join(ben, code)
    post(ana, code, "start", version=table_row(app, code).version)
    state = state_of(app, code)
    seat = state.current_player()
    html = (ana if seat == 0 else ben).get(INDEX + code).get_data(as_text=True)
    card = state.game.cards[state.legal_actions()[0] // 3]
    assert f"{Category.SIZE.value} {card.rank(Category.SIZE)}" in html
    assert 'name="number"' not in html


def test_two_server_processes_sharing_redis_hear_each_others_moves(app, school, players):
    """With REDIS_URL set, a change made through one server process reaches a page listening on
    another: two apps here, each with its own Socket.IO server as two gunicorn workers have; the
    second is served for real and Ben listens to it with a real Socket.IO client over WebSocket,
    while Ana's moves go through the first."""
    import threading
    import time
    import uuid

    import redis
    import socketio as socketio_client
    from werkzeug.serving import make_server

    from tests.conftest import skip_unless_optional
    from trainer.web import create_app

    url = "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url).ping()
    except redis.exceptions.ConnectionError:
        skip_unless_optional("Redis is not running on 127.0.0.1:6379")
    config = {**app.config, "REDIS_URL": url, "SOCKETIO_CHANNEL": f"test-{uuid.uuid4().hex}"}
    first, second = create_app(config), create_app(config)
    cookie = app.config["SESSION_COOKIE_NAME"]
    ana = first.test_client()
    ana.set_cookie(cookie, players["ana"].get_cookie(cookie).value)
    code = open_table(ana, game="play-the-ranks", players="2")
    join(players["ben"], code)

    server = make_server("127.0.0.1", 0, second, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    heard: list[dict] = []
    ben = socketio_client.Client(reconnection=False)
    ben.on("changed", heard.append)
    try:
        ben.connect(
            f"http://127.0.0.1:{server.server_port}",
            headers={"Cookie": f"{cookie}={players['ben'].get_cookie(cookie).value}"},
            transports=["websocket"],
        )
        assert ben.call("watch", {"code": code}, timeout=5)["ok"] is True
        post(ana, code, "start", version=table_row(app, code).version)  # through the first app
        deadline = time.monotonic() + 5
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [{"code": code, "version": table_row(app, code).version}]
    finally:
        ben.disconnect()
        server.shutdown()
        thread.join(timeout=5)
        for extra in (first, second):  # their own connection pools, closed (no leaked connection)
            with extra.app_context():
                db.engine.dispose()


def test_drill_at_a_live_table_is_each_students_own_choice_and_every_answer_counts(
    app, school, players
):
    """L-T6: Ben drills, Ana does not. Ben's met rankings are hidden on his cards only; his typed
    numbers are reviews in his memory model (a wrong one refuses the play and still counts); a
    peek counts as a miss; Ana's page and moves are as without drill."""
    from tests.web.test_card_games_drill import meet
    from trainer.web.models import ReviewLog

    meet(app, school["ben"])
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, players="2")
    join(ben, code)
    lobby = ben.get(INDEX + code).get_data(as_text=True)
    assert "Turn drill mode on for me" in lobby
    post(ben, code, "drill", version=table_row(app, code).version, computer="y")
    assert [d for d in drill_flags(app, code)] == [False, True]
    assert "drill mode" in ana.get(INDEX + code).get_data(as_text=True)
    post(ana, code, "start", version=table_row(app, code).version)

    def reviews() -> list[tuple[str, str, str]]:
        with app.app_context():
            return [
                tuple(r)
                for r in db.session.execute(
                    select(ReviewLog.fact_key, ReviewLog.verdict, ReviewLog.round_token).where(
                        ReviewLog.student_id == school["ben"]
                    )
                )
            ]

    wrong_done = peeked = False
    for _ in range(60):
        row = table_row(app, code)
        if row.status == "over" or (wrong_done and peeked):
            break
        state = state_of(app, code)
        seat = state.current_player()
        if seat == 0:
            html = ana.get(INDEX + code).get_data(as_text=True)
            assert "Rankings hidden" not in html and 'name="number"' not in html
            post(ana, code, "move", ply=row.ply, action=state.legal_actions()[0])
            continue
        html = ben.get(INDEX + code).get_data(as_text=True)
        assert html.count("Rankings hidden") == len(state.observation(1)["hand"])
        action = state.legal_actions()[0]
        card = state.game.cards[action // 3]
        category = list(Category)[action % 3]
        rank = card.rank(category)
        fact = f"{card.postal}:{category.name.lower()}"
        if not peeked:
            before = len(reviews())
            post(ben, code, "peek", ply=row.ply, peek=f"{card.postal}:statehood")
            assert len(reviews()) == before + 1 and reviews()[-1][1] == "wrong"
            post(ben, code, "peek", ply=row.ply, peek=f"{card.postal}:statehood")  # again: no
            assert len(reviews()) == before + 1
            peeked = True
        if not wrong_done:
            before = len(reviews())
            post(ben, code, "move", ply=row.ply, action=action, number=str(rank % 50 + 1))
            assert table_row(app, code).ply == row.ply, "a wrong number refuses the play"
            assert len(reviews()) == before + 1 and reviews()[-1][1] == "wrong"
            wrong_done = True
            continue
        before = len(reviews())
        post(ben, code, "move", ply=row.ply, action=action, number=str(rank))
        assert table_row(app, code).ply > row.ply
        assert reviews()[before:] == [(fact, "right", f"live:{code}:1")]
    assert wrong_done and peeked
    assert all(token == f"live:{code}:1" for _f, _v, token in reviews())
    with app.app_context():
        ana_reviews = db.session.execute(
            select(func.count()).select_from(ReviewLog).where(ReviewLog.student_id == school["ana"])
        ).scalar_one()
    assert ana_reviews == 0


def test_drill_is_set_before_the_start_and_not_for_geography_war(app, school, players):
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="geography-war", players="2")
    join(ben, code)
    before = snapshot(app)
    post(ben, code, "drill", version=table_row(app, code).version, computer="y")
    assert snapshot(app) == before and drill_flags(app, code) == [False, False]
    code = open_table(ana, players="2")
    join(ben, code)
    post(ana, code, "start", version=table_row(app, code).version)
    before = snapshot(app)
    post(ben, code, "drill", version=table_row(app, code).version, computer="y")
    assert snapshot(app) == before and drill_flags(app, code) == [False, False]


def test_a_seat_that_changes_hands_loses_its_drill_mode(app, school, players):
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, players="3")
    join(ben, code)
    post(ben, code, "drill", version=table_row(app, code).version, computer="y")
    assert drill_flags(app, code) == [False, True, False]
    post(ben, code, "sit", version=table_row(app, code).version, seat=2)
    assert drill_flags(app, code) == [False, False, False]


def drill_flags(app: Flask, code: str) -> list[bool]:
    with app.app_context():
        return list(
            db.session.execute(
                select(LiveSeat.drill)
                .join(LiveTable, LiveTable.id == LiveSeat.table_id)
                .where(LiveTable.code == code)
                .order_by(LiveSeat.seat)
            ).scalars()
        )


def test_the_computer_plays_for_a_student_who_is_away_and_they_take_their_seat_back(
    app, school, players
):
    """L-T7: a student not heard from for a minute is played for by the computer, asked by a
    classmate's page; not before, never for the asker's own turn, and the seat stays theirs."""
    import time_machine

    from trainer.web.models import utcnow

    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="play-the-ranks", players="2")
    join(ben, code)
    post(ana, code, "start", version=table_row(app, code).version)
    ben.get(INDEX + code)  # Ben's page is open
    # Ana plays until it is Ben's turn.
    for _ in range(4):
        state = state_of(app, code)
        if state.current_player() == 1:
            break
        post(ana, code, "move", ply=table_row(app, code).ply, action=state.legal_actions()[0])
    assert state_of(app, code).current_player() == 1
    page = ana.get(INDEX + code).get_data(as_text=True)
    assert "data-live-stand-in-at" in page and "the computer plays for them" in page
    # Too early: Ben was just heard from.
    before = snapshot(app)
    post(ana, code, "stand-in", version=table_row(app, code).version)
    assert snapshot(app) == before
    # Ben's own page may not ask the computer to play his turn.
    response = post(ben, code, "stand-in", version=table_row(app, code).version)
    assert "It is your turn" in ben.get(response.location).get_data(as_text=True)
    assert snapshot(app)[0] == before[0]
    # Two minutes on, with no word from Ben (his page closed): the computer plays his move once.
    ply = table_row(app, code).ply
    with time_machine.travel(utcnow() + dt.timedelta(minutes=2), tick=False):
        stale = table_row(app, code).version - 1
        post(ana, code, "stand-in", version=stale)  # from a page a change ago: nothing
        assert table_row(app, code).ply == ply
        post(ana, code, "stand-in", version=table_row(app, code).version)
    row = table_row(app, code)
    assert row.ply > ply and row.covered == [ply]
    assert seats_of(app, code)[1][1] == school["ben"]
    # Ben comes back: the table is his to play again when his turn comes.
    html = ben.get(INDEX + code + f"?since={ply}").get_data(as_text=True)
    assert "(the computer played for you)" in html


def test_a_turn_clock_lets_the_computer_move_for_a_slow_student(app, school, players):
    """L-T7: a table's clock (30, 60 or 120 seconds a move)."""
    import time_machine

    from trainer.web.models import utcnow

    ana, ben = players["ana"], players["ben"]
    response = ana.post(
        INDEX,
        data={
            "csrf_token": csrf_token(ana, INDEX),
            "game": "play-the-ranks",
            "players": "2",
            "team_size": "1",
            "level": "easy",
            "turn_seconds": "30",
        },
    )
    code = response.location.rsplit("/", 1)[1]
    assert table_row(app, code).turn_seconds == 30
    join(ben, code)
    post(ana, code, "start", version=table_row(app, code).version)
    state = state_of(app, code)
    mover, waiter = (ana, ben) if state.current_player() == 0 else (ben, ana)
    mover.get(INDEX + code)
    ply = table_row(app, code).ply
    with time_machine.travel(utcnow() + dt.timedelta(seconds=20), tick=False):
        mover.get(f"{INDEX}{code}/version")  # still here
        post(waiter, code, "stand-in", version=table_row(app, code).version)
    assert table_row(app, code).ply == ply
    with time_machine.travel(utcnow() + dt.timedelta(seconds=35), tick=False):
        mover.get(f"{INDEX}{code}/version")  # still here, but out of time
        post(waiter, code, "stand-in", version=table_row(app, code).version)
    assert table_row(app, code).ply > ply
    # A bad clock is refused with the form.
    bad = ana.post(
        INDEX,
        data={
            "csrf_token": csrf_token(ana, INDEX),
            "game": "play-the-ranks",
            "players": "2",
            "level": "easy",
            "turn_seconds": "5",
        },
    )
    assert bad.status_code == 400


def test_friendly_messages_are_a_fixed_few_and_not_a_flood(app, school, players):
    """L-T8: one of a few fixed messages, shown to the table for a minute; no free text, and not
    more often than every 5 seconds."""
    import time_machine

    from trainer.web.models import utcnow

    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="play-the-ranks", players="2")
    join(ben, code)
    post(ben, code, "cheer", message=3)
    assert "ben: Good luck!" in ana.get(INDEX + code).get_data(as_text=True)
    assert "You: Good luck!" in ben.get(INDEX + code).get_data(as_text=True)
    before = snapshot(app)
    post(ben, code, "cheer", message=0)  # too soon
    post(ana, code, "cheer", message=9)  # no such message
    post(ana, code, "cheer", message="Hi there")  # no free text
    assert snapshot(app) == before
    assert "Good game!" not in ana.get(INDEX + code).get_data(as_text=True).split("<legend>")[0]
    with time_machine.travel(utcnow() + dt.timedelta(seconds=61), tick=False):
        assert "ben: Good luck!" not in ana.get(INDEX + code).get_data(as_text=True)
        post(ben, code, "cheer", message=0)
        assert "ben: Good game!" in ana.get(INDEX + code).get_data(as_text=True)
    assert post(players["dee"], code, "cheer", message=0).status_code == 404


def test_a_classmate_on_the_with_classmates_page_can_be_invited(app, school, players):
    """L-T9: the lobby offers the classmates who have the "Classmates" page open; the one
    invited finds the table there, and a student of another class is never offered."""
    import time_machine

    from trainer.web.models import utcnow

    ana, ben, cai, dee = (players[n] for n in ("ana", "ben", "cai", "dee"))
    for client in (ben, dee):
        client.get(INDEX)  # on the Classmates page
    code = open_table(ana, game="play-the-ranks", players="2")
    lobby = ana.get(INDEX + code).get_data(as_text=True)
    assert "Invite ben" in lobby and "Invite dee" not in lobby and "Invite cai" not in lobby
    listener = app.extensions["socketio"].test_client(app, flask_test_client=ben)
    listener.get_received()
    post(ana, code, "invite", student=school["ben"])
    assert [m["name"] for m in listener.get_received()] == ["invited"]
    page = ben.get(INDEX).get_data(as_text=True)
    assert "ana invited you to Play the Ranks" in page
    assert ben.get(INDEX + "here").get_json() == {"invitations": 1}
    # Inviting someone not offered (another class, not on the page, made up) changes nothing.
    with app.app_context():
        from trainer.web.models import LiveInvite

        count = lambda: db.session.execute(  # noqa: E731
            select(func.count()).select_from(LiveInvite)
        ).scalar_one()
        before = count()
    for student in (school["dee"], school["cai"], 999999, "x"):
        post(ana, code, "invite", student=student)
    with app.app_context():
        assert count() == before
    # Ben joins from the invitation; then it is no longer listed.
    assert join(ben, code).status_code == 302
    assert "invited you" not in ben.get(INDEX).get_data(as_text=True)
    # Two minutes away from the page: no longer offered.
    cai.get(INDEX)
    code2 = open_table(ana, game="play-the-ranks", players="2")
    assert "Invite cai" in ana.get(INDEX + code2).get_data(as_text=True)
    with time_machine.travel(utcnow() + dt.timedelta(minutes=3), tick=False):
        assert "Invite cai" not in ana.get(INDEX + code2).get_data(as_text=True)


def finish(app: Flask, code: str, by_seat: dict[int, FlaskClient]) -> None:
    """Play the table's game to the end, each student taking the first legal move."""
    for _ in range(400):
        row = table_row(app, code)
        if row.status == "over":
            return
        state = state_of(app, code)
        post(
            by_seat[state.current_player()],
            code,
            "move",
            ply=row.ply,
            action=state.legal_actions()[0],
        )
    raise AssertionError("the game never ended")


def test_play_again_with_the_same_classmates(app, school, players):
    """L-T10: after the game, whoever asks first opens the same table again; the others are
    invited, and their finished table offers to join it; a second ask joins, never opens twice."""
    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="play-the-ranks", players="2")
    join(ben, code)
    before = snapshot(app)
    post(ana, code, "rematch")  # not over yet: nothing
    assert snapshot(app) == before
    post(ana, code, "start", version=table_row(app, code).version)
    finish(app, code, {0: ana, 1: ben})
    assert "Play again with the same classmates" in ben.get(INDEX + code).get_data(as_text=True)
    response = post(ben, code, "rematch")
    new = response.location.rsplit("/", 1)[1]
    assert table_row(app, code).rematch_code == new and new != code
    assert [u for _s, u, _c, _r in seats_of(app, new)] == [school["ben"], None]
    assert "ben invited you to Play the Ranks" in ana.get(INDEX).get_data(as_text=True)
    assert "Join the new table" in ana.get(INDEX + code).get_data(as_text=True)
    response = post(ana, code, "rematch")
    assert response.location.endswith(f"/{new}")
    assert [u for _s, u, _c, _r in seats_of(app, new)] == [school["ben"], school["ana"]]
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(LiveTable)).scalar_one() == 2


def test_a_student_has_at_most_five_tables_waiting_at_once(app, school, players):
    ana = players["ana"]
    codes = [open_table(ana, game="play-the-ranks", players="2") for _ in range(5)]
    response = ana.post(
        INDEX,
        data={
            "csrf_token": csrf_token(ana, INDEX),
            "game": "play-the-ranks",
            "players": "2",
            "level": "easy",
        },
    )
    assert response.status_code == 400
    assert "5 tables waiting for classmates already" in response.get_data(as_text=True)
    post(ana, codes[0], "leave", version=table_row(app, codes[0]).version)  # closes it
    assert open_table(ana, game="play-the-ranks", players="2")


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_the_socket_takes_a_page_of_this_site_and_refuses_another(
    app, school, players, behind_proxy
):
    """The Socket.IO handshake is same-origin only (L-T5): a page of this site connects, one of
    another site does not. Behind the school's HTTPS proxy (``BEHIND_PROXY``) the page's origin is
    ``https://`` while the app hears plain http: the proxy's forwarded scheme and host decide
    (python-engineio reads them itself), so live pages still connect there."""
    from trainer.web import create_app

    served = create_app({**app.config, "BEHIND_PROXY": behind_proxy})
    client = served.test_client()
    proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "trainer.school.example"}
    site = "https://trainer.school.example" if behind_proxy else "http://localhost"
    for origin, status in ((site, 200), ("https://elsewhere.example", 400)):
        headers = {"Origin": origin, **(proxy if behind_proxy else {})}
        response = client.get("/socket.io/?EIO=4&transport=polling", headers=headers)
        assert response.status_code == status, origin
    with served.app_context():
        db.engine.dispose()


def _live_root(html: str) -> str:
    """The page's #live-root, without what differs from one request to the next (the CSRF token,
    the server's clock)."""
    start = html.index('<div id="live-root"')
    # The element ends where its <div>s close again.
    depth, at = 0, start
    for tag in re.finditer(r"<(/?)div\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            at = start + tag.end()
            break
    root = html[start:at]
    root = re.sub(r'value="[^"]{40,}"', 'value="TOKEN"', root)
    return re.sub(r'data-live-(now|stand-in-at)="\d+"', "", root)


def test_the_live_part_is_the_page_that_live_js_puts_in_place(app, school, players):
    """What live.js fetches after a notice (?part=live): the page's #live-root as the whole page
    has it, without the header, the menu or the footer; a flashed message waits for the next
    whole page. And a seat's page built a move at a time from the kept states equals the page
    built from the seed and every action."""
    from trainer.web.live import routes as live_routes

    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, players="2")
    join(ben, code)
    post(ana, code, "start", version=table_row(app, code).version)
    by_seat = {0: ana, 1: ben}
    for _ in range(12):
        row = table_row(app, code)
        if row.status != "playing":
            break
        state = state_of(app, code)
        seat = state.current_player()
        response = post(by_seat[seat], code, "move", ply=row.ply, action=state.legal_actions()[0])
        assert response.status_code == 302
        for client in by_seat.values():  # each seat's page follows, as live.js does
            client.get(f"{INDEX}{code}?since={row.ply}&part=live")
    ply = table_row(app, code).ply
    whole = ben.get(f"{INDEX}{code}?since={ply - 1}").get_data(as_text=True)
    part = ben.get(f"{INDEX}{code}?since={ply - 1}&part=live").get_data(as_text=True)
    assert _live_root(part) == _live_root(whole)
    assert "<header" in whole and "<footer" in whole
    for chrome in ("<header", "<footer", "site-nav", "<html", "Log out"):
        assert chrome not in part, chrome
    # Built again from the seed and every action, each seat's page is the same.
    kept = {
        seat: _live_root(c.get(f"{INDEX}{code}?since={ply - 1}").get_data(as_text=True))
        for seat, c in by_seat.items()
    }
    live_routes._STATES.clear()
    for seat, client in by_seat.items():
        again = client.get(f"{INDEX}{code}?since={ply - 1}").get_data(as_text=True)
        assert _live_root(again) == kept[seat]
    # A refused move's message is not taken by the live part: the next whole page shows it.
    state = state_of(app, code)
    other = by_seat[1 - state.current_player()]
    post(other, code, "move", ply=ply, action=state.legal_actions()[0])
    assert "not your turn" not in other.get(f"{INDEX}{code}?part=live").get_data(as_text=True)
    assert "not your turn" in other.get(f"{INDEX}{code}").get_data(as_text=True)
