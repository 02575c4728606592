"""A Dashing States race between two classmates at a live table (issue 22, rulings L-D1 to L-D4),
through the Flask client: each student gets their own five Map cards at the start; the first call
the server receives decides the race (everything right: its caller wins; anything wrong: the other
wins); its reviews are recorded as against the computer; every later call, a call that cannot be
judged, a call before the start and a call from a student not at the table change nothing and
record nothing; neither page names a dealt state, or shows the classmate's cards, before the race
is over."""

from __future__ import annotations

import datetime as dt
import random
import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from tests.conftest import csrf_token
from tests.web.live_support import (
    INDEX,
    join,
    open_table,
    post,
    read_now,
    review_rows,
    seat_columns,
    seat_foreign_key,
    seat_rows,
    seat_users,
    seats_of,
    snapshot_of,
    start_table,
    table_row,
    write_open_table,
)
from tests.web.migrations import databases, empty_database
from tests.web.test_dashing import _assert_no_card_is_matched, _public_drawing
from tests.web.test_security import assert_strict_page
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.guards import Stale
from trainer.web.live import dashing_race
from trainer.web.models import (
    DashingRound,
    LiveSeat,
    LiveTable,
    MemoryCard,
    ReviewLog,
    User,
    utcnow,
)
from trainer.web.play.forms import DashingForm

GAME = "dashing-states"
#: The token a live page's script sends its forms with (random text, like the forms' own).
LIVE_CSRF = re.compile(r'<input type="hidden" id="live-csrf" value="[^"]*">')


def start_race(app: Flask, ana: FlaskClient, ben: FlaskClient) -> str:
    """ana opens a Dashing States race, ben joins, ana starts it (L-D1)."""
    return start_table(app, ana, [ben], game=GAME, players="7", team_size="3")


def rounds(app: Flask, code: str) -> dict[int, DashingRound]:
    return seat_rows(app, code, DashingRound, LiveSeat.dashing_round_id)


def call_data(app: Flask, cards: list[str], *, wrong_capital: bool = False) -> dict[str, str]:
    """A call of ``cards``: the four first in alphabetical order placed 1st to 4th, the last set
    aside, every name and capital right (or the first card's capital wrong)."""
    with app.app_context():
        deck = get_deck()
    by_name = sorted(range(5), key=lambda i: deck[cards[i]].name)
    data = {f"place-{i}": str(place) for place, i in enumerate(by_name[:4], start=1)}
    data[f"place-{by_name[4]}"] = "aside"
    for i, postal in enumerate(cards):
        data[f"name-{i}"] = deck[postal].name
        data[f"capital-{i}"] = deck[postal].capital
    if wrong_capital:
        first = by_name[0]
        data[f"capital-{first}"] = (
            "Springfield" if deck[cards[first]].capital != "Springfield" else "Denver"
        )
    return data


def call(client: FlaskClient, code: str, data: dict[str, str]):
    return post(client, code, "dashing-call", **data)


reviews_of = review_rows


def snapshot(app: Flask) -> tuple:
    """Everything a call may change: the tables, the seats, the rounds, the reviews, the memory."""
    return snapshot_of(
        app,
        select(LiveTable.code, LiveTable.status, LiveTable.version, LiveTable.finished_at),
        select(LiveSeat.table_id, LiveSeat.seat, LiveSeat.user_id, LiveSeat.result),
        select(DashingRound.id, DashingRound.result, DashingRound.called_at),
        select(ReviewLog.id),
        select(func.count()).select_from(MemoryCard),
    )


def flashes(client: FlaskClient, url: str) -> str:
    return " ".join(
        re.findall(r'class="flash[^"]*">([^<]*)', client.get(url).get_data(as_text=True))
    )


def test_a_dashing_race_is_for_two_students_each_with_their_own_five_cards(app, school, players):
    """L-D1: two seats, no computer seat, each student their own five Map cards, both turned over
    at the start; a call before the start changes nothing."""
    ana, ben = players["ana"], players["ben"]
    assert "Dashing States race (2 players)" in ana.get(INDEX).get_data(as_text=True)
    code = open_table(ana, game=GAME, players="5")
    row = table_row(app, code)
    assert (row.players, row.team_size, row.game) == (2, 1, GAME)
    lobby = ana.get(INDEX + code).get_data(as_text=True)
    assert "Dashing States race with classmates" in lobby
    assert "Give it to the computer" not in lobby
    before = snapshot(app)
    post(ana, code, "computer", version=row.version, seat=1, computer="y")
    post(ana, code, "start", version=row.version)
    assert snapshot(app) == before and table_row(app, code).status == "open"
    assert "Dashing States race is between two classmates" in flashes(ana, INDEX + code)
    assert join(ben, code).status_code == 302
    before = snapshot(app)
    early = call(ben, code, call_data(app, ["TX", "OK", "NM", "NY", "PA"]))
    assert early.status_code == 302 and snapshot(app) == before
    assert post(ana, code, "start", version=table_row(app, code).version).status_code == 302
    dealt = rounds(app, code)
    assert sorted(dealt) == [0, 1]
    assert all(len(set(r.cards)) == 5 for r in dealt.values())
    assert dealt[0].student_id == school["ana"] and dealt[1].student_id == school["ben"]
    assert dealt[0].token != dealt[1].token and dealt[0].seed != dealt[1].seed
    # Turned over at the same instant, the table's start.
    started = table_row(app, code).started_at
    assert dealt[0].created_at == dealt[1].created_at == started is not None
    assert {r.result for r in dealt.values()} == {"playing"}
    assert {r.call for r in dealt.values()} == {None}


def test_no_page_names_a_dealt_state_or_shows_the_classmates_cards_before_the_end(
    app, school, players
):
    """L-D4 and P-H2: while the race is on, each page draws only its own five Map cards, through
    its round's own stretches: no name, postal code, public outline, ring or close-up of either
    student's states (all 50 states dealt over five deals); the page polled for a change carries
    nothing else. A call sent back to be fixed shows nothing more."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    with app.app_context():
        deck = get_deck()
        postals = sorted(deck.geometry.shapes)
    random.Random(22).shuffle(postals)
    public = {postal: _public_drawing(ana, postal) for postal in postals}
    clients = {0: ana, 1: ben}
    for deal in range(5):
        ten = postals[10 * deal : 10 * deal + 10]
        with app.app_context():
            for seat, cards in ((0, ten[:5]), (1, ten[5:])):
                db.session.execute(
                    update(DashingRound)
                    .where(DashingRound.id == dealt[seat].id)
                    .values(cards=cards, seed=dealt[seat].seed + deal)
                )
            db.session.commit()
        for seat, client in clients.items():
            mine, theirs = (ten[:5], ten[5:]) if seat == 0 else (ten[5:], ten[:5])
            response = client.get(INDEX + code)
            page = response.get_data(as_text=True)
            assert f"Racing <strong>{'ben' if seat == 0 else 'ana'}</strong>" in page
            assert_strict_page(page)
            # The live page's own CSRF token is random text: a piece of it may read "ia" by chance.
            page = LIVE_CSRF.sub("", page)
            shown = [page]
            if deal == 0:  # a call sent back to be fixed: the page again, with what was typed
                refused = call(client, code, {"place-0": "1", "name-0": "Texas"})
                assert refused.status_code == 400
                assert 'role="alert"' in refused.get_data(as_text=True)
                shown.append(LIVE_CSRF.sub("", refused.get_data(as_text=True)))
            for html in shown:
                drawn = _assert_no_card_is_matched(html, mine, deck, public)
                # Nothing of the classmate's five cards either: their names, codes, or drawing.
                body = re.sub(r"<datalist.*?</datalist>", "", html, flags=re.S)
                for postal in theirs:
                    assert deck[postal].name not in body.replace("Texas", "")
                    assert deck[postal].capital not in body
                    assert not re.search(rf"\b{postal}\b", body)
                assert drawn == _assert_no_card_is_matched(page, mine, deck, public)
            polled = client.get(f"{INDEX}{code}/version").get_json()
            assert set(polled) == {"version", "status", "ply"}
    assert table_row(app, code).status == "playing"


def test_a_right_first_call_wins_and_is_recorded_as_against_the_computer(app, school, players):
    """L-D2: the first call decides; everything right wins it. Its reviews go through the memory
    model as a call against the computer does (mode, form, round token, the four cards' map and
    capital facts); the other student records nothing (L-D3)."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    assert call(ben, code, call_data(app, dealt[1].cards)).status_code == 302
    assert table_row(app, code).status == "over"
    assert [r for *_x, r in seats_of(app, code)] == ["lost", "won"]
    after = rounds(app, code)
    assert (after[0].result, after[1].result) == ("lost", "won")
    assert after[1].call is not None and after[0].call is None
    assert after[1].seconds is not None and after[1].seconds >= 0
    with app.app_context():
        deck = get_deck()
    aside = max(dealt[1].cards, key=lambda p: deck[p].name)
    placed = [p for p in dealt[1].cards if p != aside]
    logged = reviews_of(app, school["ben"])
    assert sorted(r.fact_key for r in logged) == sorted(
        f"{p}:{facet}" for p in placed for facet in ("map", "capital")
    )
    assert {(r.mode, r.form, r.round_token, r.verdict) for r in logged} == {
        ("dashing_states", "typed", f"dashing_states:{dealt[1].token}", "right")
    }
    with app.app_context():
        memory = db.session.execute(
            select(MemoryCard.fact_key).where(MemoryCard.student_id == school["ben"])
        ).scalars()
        assert sorted(memory) == sorted(r.fact_key for r in logged)
    assert reviews_of(app, school["ana"]) == []
    # Both pages show the result; each its own call or cards, and the classmate's call judged.
    mine = ben.get(INDEX + code).get_data(as_text=True)
    assert "You win!" in mine and "Your call" in mine and "You called first" in mine
    assert all(deck[p].name in mine for p in placed)
    theirs = ana.get(INDEX + code).get_data(as_text=True)
    assert "ben wins" in theirs and "ben's call" in theirs and "Your cards were" in theirs
    assert all(deck[p].name in theirs and deck[p].capital in theirs for p in dealt[0].cards)
    assert "ben called first, with the four states in order" in theirs
    assert_strict_page(theirs)
    finished = ana.get(INDEX).get_data(as_text=True)
    assert "Dashing States race</a>" in finished and "you lost" in finished
    # "Race again" opens a new Dashing States race, with the classmate invited (L-T10).
    assert post(ana, code, "rematch").status_code == 302
    assert table_row(app, table_row(app, code).rematch_code or "").game == GAME


def test_the_race_pages_clock_counts_from_the_start_on_the_servers_clock(app, school, players):
    """L-D1: each page's running clock (dashing.js, as against the computer) counts from the moment
    both hands turned over, the table's start as the server has it, on the server's clock: the page
    says the server's time when it made it, as a live page does for its other waits. It is not in
    the live region (not read out every second), and no part of the call: who wins is the first
    call kept (L-D2). Once the race is over, each page says where the clock stopped, at that call."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    started = utcnow().replace(microsecond=0) - dt.timedelta(seconds=95)
    with app.app_context():
        db.session.execute(
            update(LiveTable).where(LiveTable.code == code).values(started_at=started)
        )
        db.session.execute(
            update(DashingRound)
            .where(DashingRound.id.in_([row.id for row in dealt.values()]))
            .values(created_at=started)
        )
        db.session.commit()
    for client in (ana, ben):
        before = int(utcnow().timestamp() * 1000)
        html = client.get(INDEX + code).get_data(as_text=True)
        after = int(utcnow().timestamp() * 1000)
        [clock] = re.findall(r'<span class="ds__clock" id="ds-clock" role="timer"[^>]*>', html)
        at = dict(re.findall(r'(data-clock-start|data-clock-now)="(\d+)"', clock))
        assert int(at["data-clock-start"]) == int(started.timestamp() * 1000)
        assert before <= int(at["data-clock-now"]) <= after
        assert "js/dashing.js" in html
        announced = re.search(r'id="live-announce">.*?</span>', html, flags=re.S)
        form = re.search(r"<form\b[^>]*dashing-call.*?</form>", html, flags=re.S)
        assert announced is not None and "ds-clock" not in announced.group(0)
        assert form is not None and "clock" not in form.group(0)
    assert call(ana, code, call_data(app, dealt[0].cards)).status_code == 302
    with app.app_context():
        db.session.execute(
            update(DashingRound)
            .where(DashingRound.id == dealt[0].id)
            .values(called_at=started + dt.timedelta(seconds=83.6))
        )
        db.session.commit()
    for client in (ana, ben):
        html = client.get(INDEX + code).get_data(as_text=True)
        assert 'id="ds-clock"' not in html and "js/dashing.js" not in html
        assert 'The clock stopped at <strong class="ds__clock">1:23</strong>' in html
    assert dashing_race.clock_text(3599.99) == "59:59" and dashing_race.clock_text(-1) == "0:00"


def test_a_wrong_first_call_loses_and_a_later_call_is_refused(app, school, players):
    """L-D2, L-D3: a wrong capital in the first call gives the race to the other student (D1);
    the call's reviews are kept (one wrong); any call after it changes nothing and records
    nothing."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    assert call(ana, code, call_data(app, dealt[0].cards, wrong_capital=True)).status_code == 302
    assert [r for *_x, r in seats_of(app, code)] == ["lost", "won"]
    after = rounds(app, code)
    assert (after[0].result, after[1].result) == ("lost", "won")
    assert after[0].seconds is None
    logged = reviews_of(app, school["ana"])
    assert len(logged) == 8 and [r.verdict for r in logged].count("wrong") == 1
    page = ana.get(INDEX + code).get_data(as_text=True)
    assert "ben wins" in page and "not everything in the call was right, so ben won" in page
    before = snapshot(app)
    late = call(ben, code, call_data(app, dealt[1].cards))
    assert late.status_code == 302
    assert "ana called first" in flashes(ben, INDEX + code)
    again = call(ana, code, call_data(app, dealt[0].cards))
    assert again.status_code == 302
    assert "You have already called" in flashes(ana, INDEX + code)
    assert snapshot(app) == before
    assert reviews_of(app, school["ben"]) == []


def test_a_call_that_cannot_be_judged_or_from_outside_changes_nothing(app, school, players):
    """L-D2, L-D3: a call without its places, or with a name left empty, is refused with the page
    and what was typed, and the race goes on; a student not at the table finds no table; a
    Dashing States call at another table, and another table's requests here, change nothing."""
    ana, ben, cai, dee = players["ana"], players["ben"], players["cai"], players["dee"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    before = snapshot(app)
    places = call(
        ana, code, {**call_data(app, dealt[0].cards), "place-0": "aside", "place-1": "aside"}
    )
    assert places.status_code == 400
    assert "Give each card its own place" in places.get_data(as_text=True)
    blank = call_data(app, dealt[0].cards)
    placed = next(i for i in range(5) if blank[f"place-{i}"] != "aside")
    blank[f"name-{placed}"] = "  "
    empty = call(ana, code, blank)
    assert empty.status_code == 400
    html = empty.get_data(as_text=True)
    assert 'role="alert"' in html and "Racing <strong>ben</strong>" in html
    assert snapshot(app) == before
    for outsider in (cai, dee):
        response = outsider.post(
            f"{INDEX}{code}/dashing-call",
            data={"csrf_token": csrf_token(outsider, INDEX), **call_data(app, dealt[0].cards)},
        )
        assert response.status_code == 404
        assert outsider.get(INDEX + code).status_code == 404
    assert snapshot(app) == before
    # A Dashing States call at a card game's table or a Border-Up race, and a Border-Up call or a
    # card game's move, peek or stand-in at this race: refused, nothing changes.
    card_game = open_table(cai)
    border_up = open_table(cai, game="border-up")
    before = snapshot(app)
    for other in (card_game, border_up):
        assert call(cai, other, call_data(app, dealt[0].cards)).status_code == 302
        assert "does not play a Dashing States race" in flashes(cai, INDEX + other)
    assert post(ana, code, "call", **{"group-TX": "1"}).status_code == 302
    assert "does not play a Border-Up race" in flashes(ana, INDEX + code)
    for what in ("move", "peek", "stand-in"):
        assert post(ana, code, what, version=0, ply=0).status_code == 302
    assert snapshot(app) == before
    assert table_row(app, code).status == "playing"
    # The race goes on: a right call after all that is kept.
    assert call(ana, code, call_data(app, dealt[0].cards)).status_code == 302
    assert [r for *_x, r in seats_of(app, code)] == ["won", "lost"]


def test_a_call_that_read_the_race_as_on_is_refused_once_another_was_kept(app, school, players):
    """L-D2: a call that read the race as still on, but reaches the conditional write after the
    classmate's call was kept, is refused with the whole of its unit rolled back (no review)."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    table, read = read_now(app, code, dashing_race.dashing_rounds_of)
    assert call(ben, code, call_data(app, dealt[1].cards)).status_code == 302
    before = snapshot(app)
    with app.test_request_context(method="POST", data=call_data(app, dealt[0].cards)):
        student = db.session.get(User, school["ana"])
        the_call = DashingForm(meta={"csrf": False}).call()
        try:
            dashing_race.play_dashing_race_call(table, 0, read, the_call, student, utcnow())
        except Stale:
            pass
        else:
            raise AssertionError("a second first call was kept")
    assert snapshot(app) == before
    assert reviews_of(app, school["ana"]) == []


def test_two_calls_at_the_same_moment_keep_exactly_one(app, school, players):
    """L-D2: both students call at once, each right: exactly one call is kept, its caller wins, and
    only their reviews are recorded; the other is told who called first."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = rounds(app, code)
    url = f"{INDEX}{code}"
    forms = {
        seat: {"csrf_token": csrf_token(client, url), **call_data(app, dealt[seat].cards)}
        for seat, client in ((0, ana), (1, ben))
    }
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(client: FlaskClient, form: dict[str, str]) -> None:
        barrier.wait()
        statuses.append(client.post(f"{url}/dashing-call", data=form).status_code)

    threads = [
        threading.Thread(target=send, args=(client, forms[seat]))
        for seat, client in ((0, ana), (1, ben))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [302, 302]
    after = rounds(app, code)
    called = [seat for seat, row in after.items() if row.call is not None]
    assert len(called) == 1
    winner = called[0]
    assert after[winner].result == "won" and after[1 - winner].result == "lost"
    names = {0: "ana", 1: "ben"}
    assert len(reviews_of(app, school[names[winner]])) == 8
    assert reviews_of(app, school[names[1 - winner]]) == []
    loser = (ana, ben)[1 - winner]
    assert f"{names[winner]} called first" in flashes(loser, url)


def test_a_race_round_is_not_a_round_against_the_computer(app, school, players):
    """L-D1: a race's rounds open the race's page, never the solo Dashing States pages (no solo
    call, no imaginary computer's call), and are not listed among the rounds against the computer."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    token = rounds(app, code)[0].token
    before = snapshot(app)
    solo = f"/play/dashing-states/{token}"
    shown = ana.get(solo)
    assert shown.status_code == 302 and shown.location.endswith(f"/play/live/{code}")
    sent = ana.post(
        solo,
        data={"csrf_token": csrf_token(ana, INDEX), **call_data(app, rounds(app, code)[0].cards)},
    )
    assert sent.status_code == 302 and sent.location.endswith(f"/play/live/{code}")
    assert snapshot(app) == before
    assert token not in ana.get("/play/dashing-states/").get_data(as_text=True)
    # The classmate's round is not the student's: its solo page is not found.
    assert ana.get(f"/play/dashing-states/{rounds(app, code)[1].token}").status_code == 404


# --- The migration ---------------------------------------------------------------------------


@pytest.mark.parametrize("database", databases())
def test_migration_0022_adds_and_removes_the_seats_dashing_round(tmp_path, database):
    """0022 gives each seat its own Dashing States round (L-D1), set to NULL when the round goes,
    keeping the seats already there; its downgrade takes the column away and keeps them too."""
    from flask_migrate import downgrade, upgrade

    with empty_database(tmp_path, database):
        upgrade(revision="0021_live_tables")
        host = write_open_table(GAME)
        upgrade(revision="0022_live_dashing")
        assert "dashing_round_id" in seat_columns()
        key = seat_foreign_key("dashing_round")
        assert key["constrained_columns"] == ["dashing_round_id"]
        assert key["options"].get("ondelete") == "SET NULL"
        assert seat_users() == [(0, host), (1, None)]
        downgrade(revision="0021_live_tables")
        assert "dashing_round_id" not in seat_columns()
        assert seat_users() == [(0, host), (1, None)]
        upgrade(revision="0022_live_dashing")
        assert "dashing_round_id" in seat_columns()
