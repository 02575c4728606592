"""Live tables that never hang (issue 22, rulings L-T11 to L-T13), through the Flask client with the
clock moved by time_machine: a student left alone at a card game plays it to the end, the computer
playing for every classmate who is away; a duel whose classmate has left may be ended by the student
still there, with no result, kept once and announced; a table nobody has been at for a day is given
up (a lobby closed, a game over with no result), when read and by ``flask --app app live-tidy``.
Every refused or stale request changes nothing, and a stranger finds no table."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.web.live_support import (
    INDEX,
    join,
    open_table,
    page,
    post,
    seats_of,
    snapshot_of,
    start_table,
    state_of,
    table_row,
)
from tests.web.test_security import assert_strict_page
from trainer.games import Params, make_game
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.models import (
    BorderUpRound,
    DashingRound,
    LiveSeat,
    LiveTable,
    ReviewLog,
    StateIqGame,
    utcnow,
)

# Every table here is dealt from known seeds (G9): its cards are the same every run.
pytestmark = pytest.mark.usefixtures("live_seeds")

DUELS = ("border-up", "dashing-states", "state-iq")
END_BUTTON = "left: end the game"


def snapshot(app: Flask) -> tuple:
    """Everything the requests here may change: tables, seats, the duels' rounds and sides, and
    the review log."""
    return snapshot_of(
        app,
        select(
            LiveTable.code,
            LiveTable.status,
            LiveTable.version,
            LiveTable.ply,
            LiveTable.finished_at,
        ),
        select(LiveSeat.table_id, LiveSeat.seat, LiveSeat.user_id, LiveSeat.result),
        select(BorderUpRound.id, BorderUpRound.result),
        select(DashingRound.id, DashingRound.result),
        select(StateIqGame.id, StateIqGame.result),
        select(ReviewLog.id),
    )


def later(**delta: float):
    """The clock ``delta`` from now, standing still."""
    return time_machine.travel(utcnow() + dt.timedelta(**delta), tick=False)


def movers(app: Flask, code: str) -> list[int]:
    """The seat that made each of the table's moves, by ply (replayed from its seed, G9)."""
    row = table_row(app, code)
    with app.app_context():
        game = make_game(row.game, get_deck(), Params(row.players, row.team_size))
    state = game.new_initial_state(row.seed)
    out = []
    for action in row.actions:
        out.append(state.current_player())
        state.apply_action(action)
    return out


def duel_results(app: Flask, code: str) -> list[str]:
    """The result each seat's own round or side of a duel holds."""
    with app.app_context():
        table = db.session.execute(select(LiveTable).where(LiveTable.code == code)).scalar_one()
        out = []
        for seat in db.session.execute(
            select(LiveSeat).where(LiveSeat.table_id == table.id).order_by(LiveSeat.seat)
        ).scalars():
            row = (
                db.session.get(BorderUpRound, seat.round_id)
                if seat.round_id
                else db.session.get(DashingRound, seat.dashing_round_id)
                if seat.dashing_round_id
                else db.session.get(StateIqGame, seat.state_iq_game_id)
            )
            assert row is not None
            out.append(row.result)
        return out


# --- L-T11: a student left alone at a card game -----------------------------------------------


def test_a_student_left_alone_plays_the_card_game_to_the_end(app, school, players):
    """L-T11 (with L-T7): ana stays, ben and cai leave; the computer plays for each of them when
    ana's page asks, both in one write when their turns follow each other, never ana's own turn,
    and their seats stay theirs: the game ends with a result for every seat."""
    ana, ben, cai = players["ana"], players["ben"], players["cai"]
    code = start_table(app, ana, [ben, cai], game="geoplunge-51", players="3")
    for client in (ben, cai):
        page(client, code)  # their pages were open once
    stand_ins, chains = 0, []
    with later(minutes=2):  # ben and cai are away from now on; ana's page reports in
        for _ in range(300):
            row = table_row(app, code)
            if row.status == "over":
                break
            ana.get(f"{INDEX}{code}/version")
            state = state_of(app, code)
            if state.current_player() == 0:
                post(ana, code, "move", ply=row.ply, action=state.legal_actions()[0])
                continue
            assert post(ana, code, "stand-in", version=row.version).status_code == 302
            stand_ins += 1
            after = table_row(app, code)
            assert after.ply > row.ply
            chains.append(len(after.covered) - len(row.covered))
        else:
            raise AssertionError("the game never ended")
    row = table_row(app, code)
    assert row.status == "over" and stand_ins > 0
    # Ben's and cai's turns that follow each other are played in one write, each once at most.
    assert max(chains) == 2 and set(chains) <= {1, 2}
    played_by = movers(app, code)
    assert {played_by[ply] for ply in row.covered} == {1, 2}  # never ana's own turn
    seats = seats_of(app, code)
    assert [user for _s, user, _c, _r in seats] == [school["ana"], school["ben"], school["cai"]]
    assert all(result in ("won", "lost", "drawn") for _s, _u, _c, result in seats)


def test_the_chain_stops_at_a_classmate_who_is_still_there(app, school, players):
    """L-T11: the computer plays only for the students away; a classmate heard from a moment ago
    plays their own turn (the stand-in stops there)."""
    ana, ben, cai = players["ana"], players["ben"], players["cai"]
    code = start_table(app, ana, [ben, cai], game="geoplunge-51", players="3")
    page(ben, code)
    with later(minutes=2):
        for _ in range(60):
            row = table_row(app, code)
            state = state_of(app, code)
            cai.get(f"{INDEX}{code}/version")  # cai is at the table
            if state.current_player() == 1:
                break
            mover = {0: ana, 2: cai}[state.current_player()]
            post(mover, code, "move", ply=row.ply, action=state.legal_actions()[0])
        assert state_of(app, code).current_player() == 1
        before = table_row(app, code)
        post(ana, code, "stand-in", version=before.version)
        after = table_row(app, code)
    assert after.ply > before.ply and state_of(app, code).current_player() != 1
    # cai, present, was not played for.
    assert [movers(app, code)[ply] for ply in after.covered] == [1]


# --- L-T12: a duel whose classmate left -------------------------------------------------------


@pytest.mark.parametrize("game", DUELS)
def test_a_duel_whose_classmate_left_may_be_ended_once_with_no_result(app, school, players, game):
    """L-T12: not while the classmate is there (nor from a stale page, nor by a stranger); once
    they have not been heard from for two minutes, the student still there ends it: no result,
    each round or side still unfinished (it does not count), announced to the table, kept once."""
    ana, ben, dee = players["ana"], players["ben"], players["dee"]
    code = start_table(app, ana, [ben], game=game, players="2")
    page(ben, code)
    first = page(ana, code)
    assert END_BUTTON not in first and "data-live-refresh-at" in first
    before = snapshot(app)
    # Too soon: ben was just here.
    response = post(ana, code, "end", version=table_row(app, code).version)
    assert response.status_code == 302
    assert "the game waits for them" in ana.get(response.location).get_data(as_text=True)
    assert snapshot(app) == before
    # A stranger finds no table.
    assert post(dee, code, "end", version=table_row(app, code).version).status_code == 404
    assert snapshot(app) == before
    # Ben was heard from a minute and a half in: two minutes after the start is not enough.
    with later(seconds=90):
        ben.get(f"{INDEX}{code}/version")
    with later(minutes=2, seconds=30):
        post(ana, code, "end", version=table_row(app, code).version)
        assert snapshot(app) == before
    with later(minutes=4):
        html = page(ana, code)
        assert f"ben {END_BUTTON}" in html and "data-live-refresh-at" not in html
        assert_strict_page(html)
        version = table_row(app, code).version
        post(ana, code, "end", version=version - 1)  # from a page a change ago
        post(ana, code, "end", version="x")
        assert snapshot(app) == before
        listener = app.extensions["socketio"].test_client(app, flask_test_client=ben)
        assert listener.emit("watch", {"code": code}, callback=True)["ok"] is True
        listener.get_received()
        assert post(ana, code, "end", version=version).status_code == 302
        row = table_row(app, code)
        heard = [m["args"][0] for m in listener.get_received() if m["name"] == "changed"]
        assert heard == [{"code": code, "version": version + 1}]
        assert row.status == "over" and row.version == version + 1 and row.finished_at
        assert [result for _s, _u, _c, result in seats_of(app, code)] == [None, None]
        assert duel_results(app, code) == ["playing", "playing"]
        # Sent again (a double click, another tab): nothing more.
        ended = snapshot(app)
        post(ana, code, "end", version=version)
        post(ana, code, "end", version=version + 1)
        post(ben, code, "end", version=version + 1)
        assert snapshot(app) == ended
        assert listener.get_received() == []
        for client in (ana, ben):
            html = page(client, code)
            assert "No result" in html and END_BUTTON not in html
            assert "no result" in client.get(INDEX).get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one() == 0


@pytest.mark.parametrize("game", DUELS)
def test_nothing_is_played_at_a_duel_once_it_was_ended(app, school, players, game):
    """L-T12: after the end, a call or a move by either student is refused and records nothing."""
    ana, ben = players["ana"], players["ben"]
    code = start_table(app, ana, [ben], game=game, players="2")
    with later(minutes=3):
        ana.get(f"{INDEX}{code}/version")
        assert post(ana, code, "end", version=table_row(app, code).version).status_code == 302
        assert table_row(app, code).status == "over"
        ended = snapshot(app)
        for client in (ana, ben):
            if game == "border-up":
                response = post(client, code, "call", **{"group-AL": "1"})
            elif game == "dashing-states":
                response = post(client, code, "dashing-call", **{"place-0": "1"})
            else:
                response = post(
                    client, code, "state-iq", answer="Ohio", turn=table_row(app, code).ply
                )
            said = client.get(response.location).get_data(as_text=True)
            assert "over" in said and "nothing changed" in said.lower()
        assert snapshot(app) == ended


def test_a_card_game_or_a_lobby_cannot_be_ended(app, school, players):
    """L-T12 is for duels: at a card game the computer plays for a classmate who left (L-T7), and a
    lobby is closed by its host."""
    ana, ben = players["ana"], players["ben"]
    card = start_table(app, ana, [ben], game="play-the-ranks", players="2")
    lobby = open_table(ana, game="border-up", players="2")
    before = snapshot(app)
    with later(minutes=10):
        ana.get(f"{INDEX}{card}/version")
        for code in (card, lobby):
            response = post(ana, code, "end", version=table_row(app, code).version)
            assert response.status_code == 302
    assert snapshot(app) == before
    assert post(ben, lobby, "end", version=0).status_code == 404  # not at that table


# --- L-T13: tables nobody comes back to -------------------------------------------------------


def your_tables(client: FlaskClient) -> str:
    html = client.get(INDEX).get_data(as_text=True)
    match = re.search(r"<h2>Your tables</h2>(.*?)</ul>", html, re.S)
    return match.group(1) if match else ""


def test_a_lobby_never_started_is_closed_after_a_day(app, school, players):
    """L-T13: a lobby nobody changed or looked at for 24 hours is closed when read: not listed as
    waiting, its code joins nothing, and it no longer counts among the five waiting (L-T2)."""
    ana, ben = players["ana"], players["ben"]
    codes = [open_table(ana, game="play-the-ranks", players="2") for _ in range(5)]
    assert all(code in your_tables(ana) for code in codes)
    with later(hours=23):
        page(ana, codes[0])  # ana looked at this one an hour before the day was up
        assert all(table_row(app, code).status == "open" for code in codes)
    with later(hours=24, minutes=1):
        listed = your_tables(ana)
        assert codes[0] in listed and not any(code in listed for code in codes[1:])
        assert [table_row(app, code).status for code in codes] == ["open"] + ["closed"] * 4
        assert join(ben, codes[1]).status_code == 400  # "No open table has that code"
        open_table(ana, game="play-the-ranks", players="2")  # a sixth lobby: four were closed
    with later(hours=47, minutes=59):
        assert table_row(app, codes[0]).status == "open"
    with later(hours=48):
        # The table's own page, read first, finds it closed (L-T13 before L-T7's "heard from").
        assert "Nobody was at this table for a day" in page(ana, codes[0])
        assert table_row(app, codes[0]).status == "closed"


def test_a_game_nobody_played_at_for_a_day_is_over_with_no_result(app, school, players):
    """L-T13: a game with no move and no page heard from for 24 hours is over with no result when
    its page or a student's list is read: listed among the games as "no result", its page says
    so, and moves, stand-ins and friendly messages change nothing."""
    ana, ben = players["ana"], players["ben"]
    code = start_table(app, ana, [ben], game="play-the-ranks", players="2")
    state = state_of(app, code)
    mover = {0: ana, 1: ben}[state.current_player()]
    assert f"{code}/move" in page(mover, code)
    with later(hours=12):
        ben.get(f"{INDEX}{code}/version")  # ben's page reported in: the day counts from here
    with later(hours=35):
        assert code in your_tables(ana) and table_row(app, code).status == "playing"
    with later(hours=36, minutes=1):
        before = table_row(app, code)
        html = page(mover, code)  # the student whose turn it was
        row = table_row(app, code)
        assert row.status == "over" and row.version == before.version + 1 and row.finished_at
        assert row.ply == before.ply and row.actions == before.actions
        assert "No result" in html and "<strong>Your turn.</strong>" not in html
        assert f"{code}/move" not in html
        assert code not in your_tables(ana)
        assert "no result" in ana.get(INDEX).get_data(as_text=True)
        assert [result for _s, _u, _c, result in seats_of(app, code)] == [None, None]
        over = snapshot(app)
        post(mover, code, "move", ply=row.ply, action=state.legal_actions()[0])
        post(ana, code, "stand-in", version=row.version)
        post(ana, code, "peek", ply=row.ply, fact="CO:size")
        assert snapshot(app) == over
    assert post(players["dee"], code, "move", ply=0, action=0).status_code == 404


def test_live_tidy_gives_up_every_quiet_table_once(app, school, players):
    """L-T13: ``flask --app app live-tidy`` gives up every table quiet for a day, whoever reads
    them, each once; a table someone was at within the day is left alone."""
    ana, ben, cai = players["ana"], players["ben"], players["cai"]
    lobby = open_table(ana, game="play-the-ranks", players="2")
    game = start_table(app, ben, [cai], game="play-the-ranks", players="2")
    race = start_table(app, ana, [ben], game="border-up", players="2")
    runner = app.test_cli_runner()
    with later(hours=20):
        ana.get(f"{INDEX}{race}/version")  # ana's race page reported in
    with later(hours=25):
        listener = app.extensions["socketio"].test_client(app, flask_test_client=cai)
        assert listener.emit("watch", {"code": game}, callback=True)["ok"] is True
        listener.get_received()
        result = runner.invoke(args=["live-tidy"])
        assert result.exit_code == 0 and "2 live tables given up." in result.output
        assert [table_row(app, code).status for code in (lobby, game, race)] == [
            "closed",
            "over",
            "playing",
        ]
        heard = [m["args"][0] for m in listener.get_received() if m["name"] == "changed"]
        assert heard == [{"code": game, "version": table_row(app, game).version}]
        once = snapshot(app)
        again = runner.invoke(args=["live-tidy"])
        assert "0 live tables given up." in again.output and snapshot(app) == once
    with later(hours=44, minutes=1):
        assert "1 live table given up." in runner.invoke(args=["live-tidy"]).output
        assert table_row(app, race).status == "over"
        assert duel_results(app, race) == ["playing", "playing"]
        html = page(ana, race)
        assert "No result" in html and "does not count" in html


def test_a_watch_that_arrives_after_its_socket_left_is_answered_no(
    app, school, players, monkeypatch
):
    """A page that moves on while its ``watch`` is on its way: python-socketio then refuses the room
    (ValueError, "sid is not connected"), which used to escape the handler's thread; now the watch
    is answered "no" and nothing else happens."""
    from trainer.web.live import sockets

    ana, ben = players["ana"], players["ben"]
    code = open_table(ana, game="play-the-ranks", players="2")
    join(ben, code)
    listener = app.extensions["socketio"].test_client(app, flask_test_client=ben)

    def gone(name: str) -> None:
        raise ValueError("sid is not connected to requested namespace")

    monkeypatch.setattr(sockets, "join_room", gone)
    assert listener.emit("watch", {"code": code}, callback=True) == {"ok": False}
