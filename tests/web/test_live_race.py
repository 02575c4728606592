"""A Border-Up race between two classmates at a live table (issue 22, rulings L-R1 to L-R4), through
the Flask client: each student gets their own 18 cards at the start; the first call the server
receives decides the race (right: its caller wins; wrong: the other wins); every later call, a
call before the start and a call from a student not at the table change nothing and record
nothing; neither page shows the classmate's hand or a solution before the race is over."""

from __future__ import annotations

import re
from itertools import combinations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import csrf_token
from tests.web.live_support import (
    INDEX,
    join,
    open_table,
    post,
    read_now,
    review_rows,
    seat_rows,
    seats_of,
    snapshot_of,
    start_table,
    table_row,
)
from tests.web.test_security import assert_strict_page
from trainer.quiz.border_up import call_succeeds, judge_call, reviews, solutions
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.guards import Stale
from trainer.web.live import race
from trainer.web.models import BorderUpRound, LiveSeat, LiveTable, ReviewLog, User, utcnow


def start_race(app: Flask, ana: FlaskClient, ben: FlaskClient) -> str:
    """ana opens a race, ben joins, ana starts it (L-R1)."""
    return start_table(app, ana, [ben], game="border-up", players="7", team_size="3")


def hands(app: Flask, code: str) -> dict[int, BorderUpRound]:
    return seat_rows(app, code, BorderUpRound, LiveSeat.round_id)


def right_call(app: Flask, hand: list[str]) -> list[list[str]]:
    with app.app_context():
        a, b = solutions(hand, get_deck())[0]
    return [sorted(a), sorted(b)]


def wrong_call(app: Flask, hand: list[str]) -> list[list[str]]:
    with app.app_context():
        deck = get_deck()
        for six in combinations(sorted(hand), 6):
            groups = [list(six[:3]), list(six[3:])]
            if not call_succeeds(judge_call(hand, groups, deck)):
                return groups
    raise AssertionError("no wrong call in the hand")


def expected_reviews(app: Flask, hand: list[str], called: list[list[str]] | None) -> int:
    """How many reviews a call causes against the computer (the same core, ``reviews``)."""
    assert called is not None
    with app.app_context():
        return len(reviews(judge_call(hand, called, get_deck()), helped=False))


def call(client: FlaskClient, code: str, groups: list[list[str]]):
    data = {f"group-{postal}": str(n) for n, group in enumerate(groups, 1) for postal in group}
    return post(client, code, "call", **data)


def reviews_of(app: Flask, user_id: int) -> list[tuple[str, str]]:
    return sorted((row.round_token, row.mode) for row in review_rows(app, user_id))


def snapshot(app: Flask) -> tuple:
    """Everything a call may change: the table, the seats, the rounds and the review log."""
    return snapshot_of(
        app,
        select(LiveTable.code, LiveTable.status, LiveTable.version, LiveTable.finished_at),
        select(LiveSeat.table_id, LiveSeat.seat, LiveSeat.user_id, LiveSeat.result),
        select(BorderUpRound.id, BorderUpRound.result, BorderUpRound.called_at),
        select(ReviewLog.id),
    )


def test_a_race_table_is_for_two_students_and_deals_each_their_own_hand(app, school, players):
    """L-R1: two seats, no computer seat, each student their own 18 cards turned over at the start."""
    ana, ben = players["ana"], players["ben"]
    assert "Border-Up race (2 players)" in ana.get(INDEX).get_data(as_text=True)
    code = open_table(ana, game="border-up", players="5")
    row = table_row(app, code)
    assert (row.players, row.team_size, row.game) == (2, 1, "border-up")
    lobby = ana.get(INDEX + code).get_data(as_text=True)
    assert "Give it to the computer" not in lobby
    # The computer cannot be given the free seat, and the race cannot start without a classmate.
    before = snapshot(app)
    post(ana, code, "computer", version=row.version, seat=1, computer="y")
    post(ana, code, "start", version=row.version)
    assert snapshot(app) == before and table_row(app, code).status == "open"
    # A call before the start is refused and changes nothing.
    assert join(ben, code).status_code == 302
    before = snapshot(app)
    assert call(ben, code, [["TX", "OK", "NM"], ["NY", "PA", "NJ"]]).status_code == 302
    assert snapshot(app) == before
    assert post(ana, code, "start", version=table_row(app, code).version).status_code == 302
    dealt = hands(app, code)
    assert sorted(dealt) == [0, 1]
    assert all(len(r.hand) == 18 for r in dealt.values())
    assert dealt[0].hand != dealt[1].hand
    assert dealt[0].student_id == school["ana"] and dealt[1].student_id == school["ben"]
    assert dealt[0].revealed_at == dealt[1].revealed_at is not None
    assert {r.result for r in dealt.values()} == {"playing"}


def test_neither_page_shows_the_other_hand_or_a_solution_before_the_end(app, school, players):
    """L-R4: each page shows its own cards only, until the race is over."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = hands(app, code)
    with app.app_context():
        deck = get_deck()
        names = {seat: {deck[p].name for p in r.hand} for seat, r in dealt.items()}
    for seat, client, rival in ((0, ana, "ben"), (1, ben, "ana")):
        page = client.get(INDEX + code).get_data(as_text=True)
        assert f"Racing <strong>{rival}</strong>" in page
        assert_strict_page(page)
        assert all(f'id="group-{p}"' in page for p in dealt[seat].hand)
        theirs_only = set(dealt[1 - seat].hand) - set(dealt[seat].hand)
        assert not any(f"group-{p}" in page for p in theirs_only)
        # The only card names on the page are the student's own (none of the classmate's).
        assert (
            set(re.findall(r'class="bu__name" for="group-\w\w">([^<]+)</label>', page))
            == (names[seat])
        )
        assert "Winning calls" not in page and "winning group" not in page


def test_a_right_first_call_wins_and_the_other_loses(app, school, players):
    """L-R2: the first call decides; a right one wins it. Its reviews are recorded as against the
    computer, with the caller's own round token."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = hands(app, code)
    assert call(ben, code, right_call(app, dealt[1].hand)).status_code == 302
    assert table_row(app, code).status == "over"
    assert [r for *_x, r in seats_of(app, code)] == ["lost", "won"]
    after = hands(app, code)
    assert (after[0].result, after[1].result) == ("lost", "won")
    assert after[1].call is not None and after[0].call is None and after[1].seconds is not None
    logged = reviews_of(app, school["ben"])
    assert len(logged) == expected_reviews(app, dealt[1].hand, after[1].call)
    assert {token for token, _mode in logged} == {f"border_up:{dealt[1].token}"}
    assert {mode for _token, mode in logged} == {"border_up"}
    assert reviews_of(app, school["ana"]) == []
    # Both pages show the result, the calls judged and their own hand's solutions.
    mine = ben.get(INDEX + code).get_data(as_text=True)
    assert "You win!" in mine and "Your groups" in mine and "You called first" in mine
    theirs = ana.get(INDEX + code).get_data(as_text=True)
    assert (
        "ben wins" in theirs and "ben's call" in theirs and "Winning calls in your hand" in theirs
    )
    finished = ana.get(INDEX).get_data(as_text=True)
    assert "Border-Up race</a>" in finished and "you lost" in finished
    # "Race again" opens a new race table, with the classmate invited (L-T10).
    assert post(ana, code, "rematch").status_code == 302
    assert table_row(app, table_row(app, code).rematch_code or "").game == "border-up"


def test_a_wrong_first_call_loses_and_a_later_call_is_refused(app, school, players):
    """L-R2, L-R3: a wrong first call gives the race to the other; any call after it changes
    nothing and records nothing."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = hands(app, code)
    assert call(ana, code, wrong_call(app, dealt[0].hand)).status_code == 302
    assert [r for *_x, r in seats_of(app, code)] == ["lost", "won"]
    after = hands(app, code)
    assert (after[0].result, after[1].result) == ("lost", "won")
    assert len(reviews_of(app, school["ana"])) == expected_reviews(
        app, dealt[0].hand, after[0].call
    )
    before = snapshot(app)
    late = call(ben, code, right_call(app, dealt[1].hand))
    assert late.status_code == 302
    assert "ana called first" in ben.get(INDEX + code).get_data(as_text=True)
    again = call(ana, code, right_call(app, dealt[0].hand))
    assert again.status_code == 302
    assert snapshot(app) == before
    assert reviews_of(app, school["ben"]) == []


def test_a_call_from_outside_the_table_or_not_of_the_hand_changes_nothing(app, school, players):
    """L-R3: a student not at the table finds no table; a call of cards not in the hand is
    refused with the page, and nothing is kept."""
    ana, ben, cai = players["ana"], players["ben"], players["cai"]
    code = start_race(app, ana, ben)
    dealt = hands(app, code)
    before = snapshot(app)
    outsider = cai.post(
        f"{INDEX}{code}/call", data={"csrf_token": csrf_token(cai, INDEX), "group-TX": "1"}
    )
    assert outsider.status_code == 404
    strangers = sorted(set(get_deck_postals(app)) - set(dealt[0].hand))[:6]
    refused = call(ana, code, [strangers[:3], strangers[3:]])
    assert refused.status_code == 400
    half = call(ana, code, [dealt[0].hand[:3], []])
    assert half.status_code == 400
    assert 'role="alert"' in half.get_data(as_text=True)
    assert snapshot(app) == before
    # A call at a card game's table, and a card game's move, peek or stand-in at a race, change
    # nothing either.
    card_game = open_table(cai)
    before = snapshot(app)
    assert call(cai, card_game, right_call(app, dealt[0].hand)).status_code == 302
    for what in ("move", "peek", "stand-in"):
        assert post(ana, code, what, version=0, ply=0).status_code == 302
    assert snapshot(app) == before
    assert table_row(app, code).status == "playing"


def get_deck_postals(app: Flask) -> list[str]:
    with app.app_context():
        return [card.postal for card in get_deck()]


def test_two_calls_at_once_cannot_both_be_first(app, school, players):
    """L-R2: a call that read the race as still on, but reaches the conditional write after
    another call was kept, is refused with the whole of its unit rolled back (no review)."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    dealt = hands(app, code)
    table, rounds = read_now(app, code, race.rounds_of)
    # ben's call is kept first, then ana's, sent from a page that read the race as on, arrives.
    assert call(ben, code, right_call(app, dealt[1].hand)).status_code == 302
    before = snapshot(app)
    with app.test_request_context():
        student = db.session.get(User, school["ana"])
        try:
            race.play_race_call(table, 0, rounds, right_call(app, dealt[0].hand), student, utcnow())
        except Stale:
            pass
        else:
            raise AssertionError("a second first call was kept")
    assert snapshot(app) == before
    assert reviews_of(app, school["ana"]) == []


def test_a_race_round_is_not_a_round_against_the_computer(app, school, players):
    """L-R1: a race's rounds open the race's page, never the solo Border-Up pages (no hint, no
    solo call, no imaginary computer's call), and are not listed among the rounds against the
    computer."""
    ana, ben = players["ana"], players["ben"]
    code = start_race(app, ana, ben)
    with app.app_context():
        token = db.session.execute(
            select(BorderUpRound.token).where(BorderUpRound.student_id == school["ana"])
        ).scalar_one()
    before = snapshot(app)
    for what in ("", "/ready", "/hint"):
        response = (ana.get if not what else ana.post)(
            f"/play/border-up/{token}{what}",
            **({} if not what else {"data": {"csrf_token": csrf_token(ana, INDEX)}}),
        )
        assert response.status_code == 302 and response.location.endswith(f"/play/live/{code}")
    assert snapshot(app) == before
    assert token not in ana.get("/play/border-up/").get_data(as_text=True)
