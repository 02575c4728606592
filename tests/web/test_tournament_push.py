"""The teacher's round page, the projector and a match's page follow a tournament's games on the
students' devices by push, through Flask-SocketIO's test client (issue 22).

Rulings checked: P-K10 (the teacher who owns the tournament, and a student of one of the match's
teams on the match page, hear that a game of the match changed; a notice names the tournament and
the match and nothing else; anyone else is refused and hears nothing; a teacher listens to no
table, L-T5), L-T13 with P-K9 (a match's table waiting a day for a team is given up when the
match page, the round page or a seat taken reads it, before it is shown or joined).
"""

# ruff: noqa: F811  (``teacher`` is test_tournament_play's fixture, taken as a parameter)

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from flask_socketio import SocketIOTestClient
from sqlalchemy import select

from tests.conftest import client_for, csrf_token
from tests.web.test_live import INDEX, post, table_row
from tests.web.test_live_race import call, hands, right_call
from tests.web.test_live_robust import later
from tests.web.test_tournament_live import Team, code_of, record_games, setup, start_game
from tests.web.test_tournament_play import (  # noqa: F401 (fixture)
    match_games,
    teacher,
    text_of,
)
from tests.web.test_tournaments import add_students
from trainer.games import Params, make_game, replay
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.live import sockets
from trainer.web.models import LiveSeat


def listener(app: Flask, client: FlaskClient) -> SocketIOTestClient:
    return app.extensions["socketio"].test_client(app, flask_test_client=client)


def notices(socket: SocketIOTestClient) -> list[dict]:
    """The tournament notices heard since the last look (and no other event)."""
    received = socket.get_received()
    assert all(m["name"] == sockets.TOURNAMENT_CHANGED for m in received), received
    return [m["args"][0] for m in received]


def version_of(client: FlaskClient, part: str) -> str:
    html = client.get(part).get_data(as_text=True)
    return re.search(r'data-tlive-version="([0-9a-f]+)"', html).group(1)


def one_move(app: Flask, code: str, by_seat: dict[int, FlaskClient]) -> None:
    """The student to move at the Play the Ranks table makes a legal move (kept)."""
    row = table_row(app, code)
    with app.app_context():
        game = make_game(row.game, get_deck(), Params(2, 1, row.first_leader))
    state = replay(game, row.seed, row.actions)
    seat = state.current_player()
    answer = post(by_seat[seat], code, "move", ply=row.ply, action=state.legal_actions()[0])
    assert answer.status_code == 302
    assert table_row(app, code).ply > row.ply


def test_the_owning_teacher_hears_a_kept_move_at_a_match_table(world, teacher):
    """P-K10: the teacher who owns the tournament watches it (answered with the round part's
    version) and hears a content-free notice when a seat is taken, the game dealt, and a student's
    move kept; a move not kept sends nothing. A teacher cannot listen to the table itself (L-T5)."""
    app = world.app
    tid, mid = setup(world, teacher)
    record_games(teacher.client, tid, mid)
    socket = listener(app, teacher.client)
    assert socket.is_connected()
    reply = socket.emit("watch_tournament", {"tournament": tid}, callback=True)
    assert reply == {"ok": True, "version": version_of(teacher.client, f"/tournaments/{tid}/live")}
    assert socket.get_received() == []  # connecting joins no room of a student's (L-T9)
    code, (river, kid01) = start_game(world, tid, mid, 4, "play-the-ranks")
    heard = notices(socket)
    assert heard and all(n == {"tournament": tid, "match": mid} for n in heard)
    # A teacher never sits at the table, so cannot listen to it.
    assert socket.emit("watch", {"code": code}, callback=True) == {"ok": False}
    parts = (f"/tournaments/{tid}/live", f"/tournaments/{tid}/matches/{mid}/live")
    shown = [version_of(teacher.client, part) for part in parts]
    one_move(app, code, {0: river.client, 1: kid01.client})
    # The notice names the tournament and the match: no hand, no card, no move, no name.
    assert notices(socket) == [{"tournament": tid, "match": mid}]
    # The move changed nothing the pages show: their parts keep their versions (no reload).
    assert [version_of(teacher.client, part) for part in parts] == shown
    stale = table_row(app, code)
    refused = post(river.client, code, "move", ply=stale.ply - 1, action=0)
    assert refused.status_code in (302, 400, 409)
    assert table_row(app, code).version == stale.version
    assert notices(socket) == []


def test_others_are_refused_and_hear_nothing(world, teacher):
    """P-K10: another teacher, a student of another class, a student of the match asking for the
    round page's part, odd messages and an anonymous client join no room and hear nothing."""
    app = world.app
    tid, mid = setup(world, teacher)
    other_teacher = listener(app, world.client("other_teacher"))
    otter = listener(app, world.client("other_student"))
    river = listener(app, client_for(app, "river"))
    anonymous = listener(app, app.test_client())
    assert not anonymous.is_connected()
    assert other_teacher.is_connected() and otter.is_connected()
    for socket in (other_teacher, otter):
        assert socket.emit("watch_tournament", {"tournament": tid}, callback=True) == {"ok": False}
        answer = socket.emit("watch_tournament", {"tournament": tid, "match": mid}, callback=True)
        assert answer == {"ok": False}
    # The round page and the projector are the teacher's: a student of the match gets neither.
    assert river.emit("watch_tournament", {"tournament": tid}, callback=True) == {"ok": False}
    owner = listener(app, teacher.client)
    for odd in (
        None,
        "x",
        {},
        {"tournament": str(tid)},
        {"tournament": True},
        {"tournament": -tid},
        {"tournament": tid, "match": str(mid)},
        {"tournament": tid, "match": None},
        {"tournament": tid + 1000},
        {"tournament": tid + 1000, "match": mid},  # the match is not of that tournament
    ):
        assert owner.emit("watch_tournament", odd, callback=True) == {"ok": False}, odd
    for socket in (other_teacher, otter, river, owner):
        socket.get_received()
    start_game(world, tid, mid, 1, "border-up")
    assert other_teacher.get_received() == []
    assert otter.get_received() == []
    # river took a seat, so hears the table's own events: but no tournament notice.
    assert not [m for m in river.get_received() if m["name"] == sockets.TOURNAMENT_CHANGED]
    assert owner.get_received() == []  # every watch it asked was refused


def test_a_student_of_the_match_hears_it_on_the_match_page(world, teacher):
    """P-K10: a student of one of the match's teams watching its page is answered with the match's
    version and hears each change of its game on the devices, the app's record of its result
    included; a classmate on no team of the match is refused."""
    app = world.app
    tid, mid = setup(world, teacher)
    add_students(world, 1, prefix="solo")  # in the class, on no team
    kid00 = client_for(app, "kid00")
    socket = listener(app, kid00)
    match = {"tournament": tid, "match": mid}
    reply = socket.emit("watch_tournament", match, callback=True)
    url = f"/tournaments/{tid}/matches/{mid}"
    assert reply == {"ok": True, "version": version_of(kid00, f"{url}/live")}
    outsider = listener(app, client_for(app, "solo00"))
    assert outsider.emit("watch_tournament", match, callback=True) == {"ok": False}
    owner = listener(app, teacher.client)
    assert owner.emit("watch_tournament", match, callback=True)["ok"] is True
    socket.get_received()
    owner.get_received()
    code, (river, _kid01) = start_game(world, tid, mid, 1, "border-up")
    assert notices(socket) and notices(owner)
    before = version_of(kid00, f"{url}/live")
    rounds = hands(app, code)
    assert call(river.client, code, right_call(app, rounds[0].hand)).status_code == 302
    assert len(match_games(app, mid)) == 1  # recorded by the app (P-K9) ...
    assert notices(socket) == [match]  # ... and the match page is told
    assert version_of(kid00, f"{url}/live") != before
    assert outsider.get_received() == []


def test_a_waiting_table_closed_by_a_hand_record_is_announced(world, teacher):
    """P-K9, P-K10: a waiting table closed because the game was recorded by hand tells the round
    page, after the commit."""
    app = world.app
    tid, mid = setup(world, teacher)
    socket = listener(app, teacher.client)
    assert socket.emit("watch_tournament", {"tournament": tid}, callback=True)["ok"] is True
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    assert notices(socket) == [{"tournament": tid, "match": mid}]  # the seat taken
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    assert kid01.record(1, "border-up", "b").status_code == 302
    assert table_row(app, code).status == "closed"
    assert notices(socket) == [{"tournament": tid, "match": mid}]


def test_a_waiting_table_a_day_old_is_given_up_when_the_match_page_reads_it(world, teacher):
    """L-T13, P-K9: a day after the holder left, the other team's match page gives the waiting
    table up (one conditional write, announced) before showing it: it offers to play the game
    anew, the table's page says nobody came for a day, and pressing the button opens a new table
    instead of dealing the game with the holder long gone. A minute short of a day, nothing."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    socket = listener(app, teacher.client)
    assert socket.emit("watch_tournament", {"tournament": tid}, callback=True)["ok"] is True
    version = table_row(app, code).version
    with later(hours=23, minutes=59):
        assert "river holds Team 1’s seat" in kid01.text()
        assert table_row(app, code).status == "waiting"
    assert notices(socket) == []
    with later(hours=24, minutes=1):
        page = kid01.text()
        row = table_row(app, code)
        assert (row.status, row.version) == ("closed", version + 1)
        assert "river holds Team 1’s seat" not in page
        assert "Play game 1 on our own devices" in page
        assert notices(socket) == [{"tournament": tid, "match": mid}]
        kid01.text()  # read again: given up once
        assert table_row(app, code).version == version + 1
        table_page = text_of(river.client.get(f"{INDEX}{code}").get_data(as_text=True))
        assert "Nobody came to this table for a day, so it was given up" in table_page
        again = code_of(kid01.on_devices(1, "border-up"))
        assert again != code and table_row(app, again).status == "waiting"
        assert table_row(app, code).tournament_match_id is None
        with app.app_context():
            seats = db.session.execute(
                select(LiveSeat.seat, LiveSeat.user_id)
                .where(LiveSeat.table_id == table_row(app, again).id)
                .order_by(LiveSeat.seat)
            ).all()
        assert [seat for seat, user in seats if user is not None] == [1]  # kid01 alone
        assert match_games(app, mid) == []


def test_a_waiting_table_a_day_old_is_given_up_when_its_seat_is_taken(world, teacher):
    """L-T13, P-K9: the other team presses "Play it on our own devices" from a page loaded before
    the day was out: the stale table is given up first, and a new one waits for the holder's team
    (the game is not dealt with the holder long gone)."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    kid01 = Team(client_for(app, "kid01"), tid, mid)
    token = csrf_token(kid01.client, kid01.url)  # the page, loaded before the day was out
    with later(hours=24, minutes=1):
        pressed = kid01.client.post(
            f"{kid01.url}/live",
            data={"live-csrf_token": token, "live-number": "1", "live-game": "border-up"},
        )
        again = code_of(pressed)
        assert again != code
        assert table_row(app, code).status == "closed"
        assert table_row(app, again).status == "waiting"


def test_the_round_page_and_projector_give_a_day_old_waiting_table_up(world, teacher):
    """L-T13, P-K10: the teacher's round part and the projector read the match's waiting table and
    give it up after a day: they show no team as ready any more."""
    app = world.app
    tid, mid = setup(world, teacher)
    river = Team(client_for(app, "river"), tid, mid)
    code = code_of(river.on_devices(1, "border-up"))
    projector = f"/tournaments/{tid}/live?view=projector"
    assert "Team 1 is ready" in text_of(teacher.client.get(projector).get_data(as_text=True))
    with later(hours=24, minutes=1):
        shown = text_of(teacher.client.get(projector).get_data(as_text=True))
        assert "Team 1 is ready" not in shown
        assert table_row(app, code).status == "closed"
        part = text_of(teacher.client.get(f"/tournaments/{tid}/live").get_data(as_text=True))
        assert "Game 1, Border-Up: closed." in part
