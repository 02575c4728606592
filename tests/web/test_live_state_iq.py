"""A State IQ duel between two classmates at a live table (issue 22, rulings L-Q1 to L-Q5), through
the Flask client: the deal at the host's start (each side of it a State IQ game of its student), the
clues in the Power card's order (letters from the server, B clues named by the clue giver on their
own page), guesses judged as against the computer, the roles switching, the winner and the tie;
every move a conditional write on the table's ply, refused from a stale page, out of turn or from
outside the table; every guess and clue a review through the solo path; and the card a student
holds never on the classmate's page before the classmate's guessing of it is done."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import csrf_token
from tests.web.live_support import (
    INDEX,
    join,
    open_table,
    page,
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
from tests.web.test_security import assert_strict_page
from tests.web.test_state_iq import make_game
from trainer.quiz import state_iq_duel as duel
from trainer.web import get_deck
from trainer.web.extensions import db
from trainer.web.guards import Stale
from trainer.web.live import state_iq_duel as web_duel
from trainer.web.models import LiveSeat, LiveTable, ReviewLog, StateIqGame, User, utcnow

#: ana (seat 0) holds Colorado, ben (seat 1) Utah.
CARDS = ("CO", "UT")

# Every duel here is dealt from known seeds (G9): the same cards every run.
pytestmark = pytest.mark.usefixtures("live_seeds")


@pytest.fixture
def deal(app, monkeypatch):
    """Deal a known duel: the cards above, the Power card and the first guesser a test asks for
    (``deal(code, first)`` before the start); the statehood draw agrees with the first guesser."""
    chosen = {"code": "ABC", "first": 0}

    def draw(deck, cards, seed):
        return chosen["first"], (("DE", "HI") if chosen["first"] == 0 else ("HI", "DE"))

    def dealt(weakest, deck, seed):
        power = next(p for p in deck.power_cards if p.clue_code == chosen["code"])
        return duel.Deal(CARDS, power.id, *draw(deck, CARDS, seed))

    monkeypatch.setattr(duel, "deal_duel", dealt)
    monkeypatch.setattr(duel, "statehood_draw", draw)

    def choose(code: str = "ABC", first: int = 0) -> None:
        chosen.update(code=code, first=first)

    return choose


def start_duel(app: Flask, ana: FlaskClient, ben: FlaskClient) -> str:
    """ana opens a State IQ duel, ben joins, ana starts it."""
    return start_table(app, ana, [ben], game="state-iq", players="5", team_size="2")


def sides(app: Flask, code: str) -> dict[int, StateIqGame]:
    return seat_rows(app, code, StateIqGame, LiveSeat.state_iq_game_id)


def move(client: FlaskClient, app: Flask, code: str, answer: str, turn: int | None = None):
    ply = table_row(app, code).ply if turn is None else turn
    return post(client, code, "state-iq", answer=answer, turn=ply)


def reviews_of(app: Flask, user_id: int) -> list[tuple[str, str, str, str]]:
    return sorted(
        (row.round_token, row.mode, row.fact_key, row.verdict) for row in review_rows(app, user_id)
    )


def snapshot(app: Flask) -> tuple:
    """Everything a move may change: the table, the seats, both sides and the review log."""
    return snapshot_of(
        app,
        select(LiveTable.code, LiveTable.status, LiveTable.version, LiveTable.ply),
        select(LiveSeat.table_id, LiveSeat.seat, LiveSeat.user_id, LiveSeat.result),
        select(StateIqGame.id, StateIqGame.result, StateIqGame.recorded),
        select(ReviewLog.id),
    )


#: The map to pick a move on (deck/_map.html's pick_map, named): all 50 states, named alike.
PICK_MAP = re.compile(r'<svg class="map-card map-card--pick".*?</svg>', flags=re.S)


def without_lists(html: str) -> str:
    """The page without the lists of all 50 states to choose from, the autocomplete's and the
    map's (they name every state alike; the map is the same on every page, whatever the cards:
    test_the_student_to_move_picks_on_the_map_of_the_game_against_the_computer), and without its
    CSRF tokens (random letters)."""
    html = PICK_MAP.sub("", re.sub(r"<datalist.*?</datalist>", "", html, flags=re.S))
    return re.sub(r'name="csrf_token"[^>]*>|id="live-csrf"[^>]*>', "", html)


def pick_map_of(html: str) -> str | None:
    """The page's map to pick a move on, or None."""
    found = PICK_MAP.search(html)
    return found.group(0) if found else None


def picked(html: str, name: str) -> str:
    """What the page's map puts in the answer when the state ``name`` is clicked, or chosen with
    Enter or Space (answer.js): the ``data-postal`` of the outline the map names so."""
    svg = pick_map_of(html)
    assert svg is not None, "no map on the page"
    [postal] = re.findall(
        rf'<use\b[^>]*\bdata-postal="([A-Z]{{2}})"[^>]*\baria-label="{re.escape(name)}"', svg
    )
    return postal


def halves_of(html: str) -> str:
    """The page's list of each half's clues and guesses."""
    found = re.search(r'<div class="siq__table">.*?</div>', html, flags=re.S)
    assert found is not None
    return found.group(0)


def assert_hidden(app: Flask, html: str, postal: str) -> None:
    with app.app_context():
        state = get_deck()[postal]
    html = without_lists(html)
    assert state.name not in html and state.capital not in html
    assert not re.search(rf"\b{state.postal}\b", html)


def test_a_duel_table_is_for_two_students_and_deals_each_their_side(app, school, players, deal):
    """L-Q1, L-Q2: two seats, no computer seat; at the start one duel, one Power card, each
    student's side a State IQ game of theirs (their card as theirs, the other's as the other)."""
    ana, ben = players["ana"], players["ben"]
    deal("BAC", first=1)
    assert "State IQ duel (2 players)" in page(ana, "")
    code = open_table(ana, game="state-iq", players="5")
    row = table_row(app, code)
    assert (row.players, row.team_size, row.game) == (2, 1, "state-iq")
    assert "Give it to the computer" not in page(ana, code)
    before = snapshot(app)
    post(ana, code, "computer", version=row.version, seat=1, computer="y")
    post(ana, code, "start", version=row.version)
    assert snapshot(app) == before and table_row(app, code).status == "open"
    assert join(ben, code).status_code == 302
    before = snapshot(app)
    early = move(ben, app, code, "Colorado", turn=0)
    assert early.status_code == 302
    assert "has not started yet" in page(ben, code)
    assert snapshot(app) == before
    assert post(ana, code, "start", version=table_row(app, code).version).status_code == 302
    dealt = sides(app, code)
    assert sorted(dealt) == [0, 1]
    assert (dealt[0].student_card, dealt[0].computer_card) == CARDS
    assert (dealt[1].student_card, dealt[1].computer_card) == CARDS[::-1]
    assert dealt[0].power_card == dealt[1].power_card and dealt[0].seed == dealt[1].seed
    assert (dealt[0].first_guesser, dealt[1].first_guesser) == ("computer", "student")
    assert (dealt[0].student_id, dealt[1].student_id) == (school["ana"], school["ben"])
    assert {r.result for r in dealt.values()} == {"playing"}
    # The Power card and the draw are on both pages; ben guesses first.
    mine, theirs = page(ben, code), page(ana, code)
    assert "BAC" in mine and "so you guess first" in mine
    assert "so ben guesses first" in theirs
    assert_strict_page(mine)


def test_the_clues_follow_the_power_card_and_the_giver_names_the_border_state(
    app, school, players, deal
):
    """L-Q1, Q1: BAC: ana gives the B clue on her own page (a review of Colorado's borders, as
    against the computer), then the server gives the letters before ben's next guesses."""
    ana, ben = players["ana"], players["ben"]
    deal("BAC", first=1)
    code = start_duel(app, ana, ben)
    guesser = page(ben, code)
    assert "Waiting for ana to give you a clue" in guesser and 'id="answer-form"' not in guesser
    giver = page(ana, code)
    assert "Your clue for ben: name a state that borders Colorado" in giver
    assert move(ana, app, code, "Kansas").status_code == 302
    dealt = sides(app, code)
    assert reviews_of(app, school["ana"]) == [
        (f"state_iq:{dealt[0].token}", "state_iq", "CO:borders", "right")
    ]
    guesser = page(ben, code)
    assert "Clue: It borders Kansas." in guesser and "Your guess 1 of 3" in guesser
    assert move(ben, app, code, "Nebraska").status_code == 302
    # The A letter comes from the server, no move of ana's.
    guesser = page(ben, code)
    assert "The first letter of the postal code is C." in guesser and "Your guess 2 of 3" in guesser
    assert move(ben, app, code, "California").status_code == 302
    assert "The first letter of the capital is D." in page(ben, code)


def test_a_clue_that_does_not_border_is_a_mistake_only_its_giver_sees(app, school, players, deal):
    """L-Q1, as against the computer: refused, kept as a wrong answer about the giver's borders,
    said to the giver; the guesser is shown nothing of it (it is about the giver's card)."""
    ana, ben = players["ana"], players["ben"]
    deal("BBB", first=1)
    code = start_duel(app, ana, ben)
    assert move(ana, app, code, "Texas").status_code == 302
    assert "Texas does not border Colorado" in page(ana, code)
    assert "Not border states of yours: Texas" in page(ana, code)
    assert [v for *_x, v in reviews_of(app, school["ana"])] == ["wrong"]
    assert "Texas" not in without_lists(page(ben, code))
    assert "Waiting for ana to give you a clue" in page(ben, code)
    # The same mistake again changes nothing.
    before = snapshot(app)
    assert move(ana, app, code, "Texas").status_code == 400
    assert snapshot(app) == before


def test_neither_card_reaches_the_other_page_before_its_guessing_is_done(
    app, school, players, deal
):
    """L-Q4: while ben may still guess ana's Colorado, no page, refusal or version answer of his
    names it; once he guessed it, his page shows it, and ana's still hides his Utah."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=1)
    code = start_duel(app, ana, ben)
    refused = move(ana, app, code, "Utah")  # out of turn (ben guesses): refused, said on her page
    assert refused.status_code == 302
    refused = ana.get(INDEX + code)
    assert "It is not your turn" in refused.get_data(as_text=True)
    responses = [ben.get(INDEX + code), ben.get(f"{INDEX}{code}/version")]
    responses.append(move(ben, app, code, "Ohio"))
    responses.append(ben.get(INDEX + code))
    responses.append(move(ana, app, code, "Wyoming"))  # ana's B clue
    responses.append(move(ben, app, code, "Atlantis"))  # a 400 page
    responses.append(ben.get(INDEX + code))
    for response in responses:
        assert_hidden(app, response.get_data(as_text=True), "CO")
    for html in (page(ana, code), refused.get_data(as_text=True)):
        assert_hidden(app, html, "UT")
    assert move(ben, app, code, "Colorado").status_code == 302
    assert "Colorado" in without_lists(page(ben, code))
    assert "ana’s card" in page(ben, code)
    assert_hidden(app, page(ana, code), "UT")


def test_guesses_are_judged_and_the_fewer_guesses_win(app, school, players, deal):
    """Q3, L-Q3: ben guesses in 2, then roles switch and ana in 1: ana wins. Every guess is
    recorded as against the computer (a wrong guess a clue ruled out, the guessed state's facts)."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=1)
    code = start_duel(app, ana, ben)
    # A slip of spelling names no state: asked again, nothing changed (P-H6, as in solo).
    before = snapshot(app)
    typo = move(ben, app, code, "Colorada")
    assert typo.status_code == 400 and "Type the name of one of the 50 states" in typo.get_data(
        as_text=True
    )
    too_long = move(ben, app, code, "x" * 61)
    assert too_long.status_code == 400
    assert "too long for a state" in too_long.get_data(as_text=True)
    assert snapshot(app) == before
    assert move(ben, app, code, "Texas").status_code == 302  # ruled out by "C"
    assert move(ana, app, code, "Kansas").status_code == 302
    assert move(ben, app, code, "CO").status_code == 302
    assert "Your guess 1 of 3: which state does ben hold?" in page(ana, code)
    assert " fit" not in page(ana, code) and " fit" not in page(ben, code)  # no aid (L-Q1)
    assert move(ana, app, code, "Utah").status_code == 302
    assert table_row(app, code).status == "over"
    assert [r for *_x, r in seats_of(app, code)] == ["won", "lost"]
    assert "states fit" in page(ben, code) and "does not fit the clue" in page(ben, code)
    dealt = sides(app, code)
    assert (dealt[0].result, dealt[1].result) == ("won", "lost")
    assert (dealt[0].student_guesses, dealt[1].student_guesses) == (1, 2)
    ben_reviews = reviews_of(app, school["ben"])
    assert {t for t, *_x in ben_reviews} == {f"state_iq:{dealt[1].token}"}
    assert ("TX:postal", "wrong") in {(k, v) for _t, _m, k, v in ben_reviews}
    assert {(k, v) for _t, _m, k, v in ben_reviews if k.startswith("CO:")} == {
        ("CO:postal", "right"),
        ("CO:borders", "right"),
    }
    ana_reviews = reviews_of(app, school["ana"])
    assert ("CO:borders", "right") in {(k, v) for _t, _m, k, v in ana_reviews}
    assert ("UT:postal", "right") in {(k, v) for _t, _m, k, v in ana_reviews}
    mine, theirs = page(ana, code), page(ben, code)
    assert "You win!" in mine and "You guessed in 1 guess;" in mine
    assert "ana wins" in theirs and "You guessed in 2 guesses" in theirs
    assert "Colorado" in without_lists(mine) and "Utah" in without_lists(theirs)
    assert "Play again with ben" in mine
    # After the end, any move changes nothing.
    before = snapshot(app)
    assert move(ben, app, code, "Utah").status_code == 302
    assert "This duel is over" in page(ben, code)
    assert snapshot(app) == before


def test_the_same_number_of_guesses_is_a_tie(app, school, players, deal):
    """Q3: both right at the first guess: a tie for both."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=0)
    code = start_duel(app, ana, ben)
    assert move(ana, app, code, "Utah").status_code == 302
    assert move(ben, app, code, "Colorado").status_code == 302
    assert [r for *_x, r in seats_of(app, code)] == ["drawn", "drawn"]
    assert {r.result for r in sides(app, code).values()} == {"tied"}
    assert "It’s a tie" in page(ana, code) and "It’s a tie" in page(ben, code)


def test_the_student_to_move_picks_on_the_map_of_the_game_against_the_computer(
    app, school, players, deal
):
    """As against the computer, whose page offers its map for a guess and for a clue alike: the
    map is on the page of the student whose move is due (a clue, then a guess) and on no other
    page; it is the solo game's very map, and the same on both pages whatever card either holds,
    so it marks neither (L-Q4)."""
    ana, ben = players["ana"], players["ben"]
    deal("BAC", first=1)  # ana gives the B clue first, then ben guesses
    code = start_duel(app, ana, ben)
    giver, waiting = page(ana, code), page(ben, code)
    assert pick_map_of(waiting) is None and "Or pick the state on the map" not in waiting
    assert "js/pickmap.js" not in waiting
    on_clue = pick_map_of(giver)
    assert on_clue is not None and "Or pick the state on the map" in giver
    assert "js/pickmap.js" in giver and "js/answer.js" in giver
    assert 'id="pick-live-named" aria-live="polite"' in giver  # the keyboard's moves are said
    # ana's game against the computer, with other cards (Maine hidden, not Utah or Colorado).
    make_game(app, school["ana"], token="solo-map", student_card="TX", computer_card="ME")
    solo = ana.get("/play/state-iq/solo-map").get_data(as_text=True)
    assert pick_map_of(solo) == on_clue
    assert move(ana, app, code, picked(giver, "Kansas")).status_code == 302
    guesser = page(ben, code)
    assert "Clue: It borders Kansas." in guesser and "Your guess 1 of 3" in guesser
    assert pick_map_of(guesser) == on_clue  # ben guesses ana's Colorado on the map she clued on
    assert pick_map_of(page(ana, code)) is None
    assert_strict_page(guesser)


def test_a_state_picked_on_the_map_is_judged_as_the_same_state_typed(app, school, players, deal):
    """L-Q1, L-Q3: the map puts the state's postal code in the answer (answer.js), and the same
    duel played by picks on the map keeps the same moves, the same reviews of both students and
    the same result as played by typing the states' names."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=1)
    moves = [(ben, "Texas"), (ana, "Kansas"), (ben, "Colorado"), (ana, "Utah")]
    played = []
    for how in ("typed", "picked"):
        code = start_duel(app, ana, ben)
        for client, name in moves:
            answer = name if how == "typed" else picked(page(client, code), name)
            assert answer == name or len(answer) == 2
            assert move(client, app, code, answer).status_code == 302
        tokens = {f"state_iq:{row.token}" for row in sides(app, code).values()}
        reviews = sorted(
            (who, mode, fact, verdict)
            for who in ("ana", "ben")
            for token, mode, fact, verdict in reviews_of(app, school[who])
            if token in tokens
        )
        results = [result for *_x, result in seats_of(app, code)]
        played.append((table_row(app, code).actions, results, reviews, halves_of(page(ben, code))))
    typed, picked_on_map = played
    assert typed == picked_on_map
    actions, results, reviews, halves = typed
    assert results == ["won", "lost"] and len(actions) == 4
    assert ("ben", "state_iq", "TX:postal", "wrong") in reviews
    assert "Guess 1: <strong>Texas</strong>" in halves


def test_stale_double_and_out_of_turn_moves_change_nothing(app, school, players, deal):
    """L-Q3 (L-T4): a move from a page a move ago, the same move twice, a move out of turn and a
    move from a student not at the table change nothing."""
    ana, ben, cai = players["ana"], players["ben"], players["cai"]
    deal("ABC", first=0)
    code = start_duel(app, ana, ben)
    card_game = open_table(cai)
    before = snapshot(app)
    out_of_turn = move(ben, app, code, "Colorado")
    assert out_of_turn.status_code == 302
    assert "It is not your turn" in page(ben, code)
    assert snapshot(app) == before
    assert move(ana, app, code, "Ohio", turn=0).status_code == 302
    before = snapshot(app)
    again = move(ana, app, code, "Iowa", turn=0)  # the same page's form, sent again
    assert again.status_code == 302
    assert "the page was out of date" in page(ana, code)
    assert move(ana, app, code, "Iowa", turn=None).status_code == 302  # ben's clue is due
    assert "It is not your turn" in page(ana, code)
    outsider = cai.post(
        f"{INDEX}{code}/state-iq",
        data={"csrf_token": csrf_token(cai, INDEX), "answer": "Utah", "turn": "2"},
    )
    assert outsider.status_code == 404 and cai.get(INDEX + code).status_code == 404
    stranger = players["dee"].get(INDEX + code)
    assert stranger.status_code == 404
    # A card game's move, peek or stand-in at a duel, and a duel's move at a card game's table.
    for what in ("move", "peek", "stand-in"):
        assert post(ana, code, what, version=0, ply=0).status_code == 302
    assert move(cai, app, card_game, "Utah", turn=0).status_code == 302
    assert snapshot(app) == before


def test_two_moves_at_once_keep_one(app, school, players, deal):
    """L-Q3: a move that read the duel at ply 1 but reaches the conditional write after another
    move was kept is refused, with its whole unit (its reviews) rolled back."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=0)
    code = start_duel(app, ana, ben)
    table, games = read_now(app, code, web_duel.games_of)
    assert move(ana, app, code, "Utah").status_code == 302
    before = snapshot(app)
    with app.test_request_context():
        student = db.session.get(User, school["ana"])
        with pytest.raises(Stale):
            web_duel.play_duel_move(table, 0, games, "NV", student, utcnow(), 0)
    assert snapshot(app) == before


def test_a_duels_game_is_not_a_game_against_the_computer(app, school, players, deal):
    """L-Q5: each side's game opens the duel's page, never the solo State IQ page or move, and
    is not listed among the games against the computer."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=0)
    code = start_duel(app, ana, ben)
    token = sides(app, code)[0].token
    before = snapshot(app)
    shown = ana.get(f"/play/state-iq/{token}")
    moved = ana.post(
        f"/play/state-iq/{token}",
        data={"csrf_token": csrf_token(ana, INDEX), "answer": "Utah", "turn": "0"},
    )
    for response in (shown, moved):
        assert response.status_code == 302 and response.location.endswith(f"/play/live/{code}")
    assert snapshot(app) == before
    assert token not in ana.get("/play/state-iq/").get_data(as_text=True)
    assert move(ana, app, code, "Utah").status_code == 302
    assert move(ben, app, code, "Colorado").status_code == 302
    finished = page(ana, "")
    assert "State IQ duel</a>" in finished and "a draw" in finished
    assert token not in ana.get("/play/state-iq/").get_data(as_text=True)


def test_a_real_deal_leans_on_each_students_weakest_states(app, school, players):
    """L-Q2, without a known deal: each card is one of the classmate's first ten states to learn
    (two new students), the two differ, and the draw shown agrees with who guesses first."""
    ana, ben = players["ana"], players["ben"]
    code = start_duel(app, ana, ben)
    dealt = sides(app, code)
    with app.test_request_context():
        deck = get_deck()
        queues = {
            seat: web_duel.weakest_states(
                db.session.get(User, row.student_id), deck, web_duel.FACETS, None
            )
            for seat, row in dealt.items()
        }
    # Seat 1's card is drawn first, among ana's ten; then seat 0's among ben's ten, without it.
    assert dealt[0].computer_card in list(dict.fromkeys(queues[0]))[:10]
    taken = dealt[0].computer_card
    assert dealt[1].computer_card in [p for p in dict.fromkeys(queues[1]) if p != taken][:10]
    assert dealt[0].student_card != dealt[0].computer_card
    first = 0 if dealt[0].first_guesser == "student" else 1
    mine = page(ana, code)
    assert ("so you guess first" if first == 0 else "so ben guesses first") in mine


def test_a_move_reaches_the_other_seats_socket_with_no_card(app, school, players, deal):
    """L-T5 at a duel: each kept move tells the classmate's socket the table's code and version,
    and nothing else (no card, no guess)."""
    ana, ben = players["ana"], players["ben"]
    deal("ABC", first=0)
    code = start_duel(app, ana, ben)
    listener = app.extensions["socketio"].test_client(app, flask_test_client=ben)
    assert listener.emit("watch", {"code": code}, callback=True)["ok"] is True
    listener.get_received()
    assert move(ana, app, code, "Ohio").status_code == 302
    heard = [m for m in listener.get_received() if m["name"] == "changed"]
    assert [m["args"][0] for m in heard] == [
        {"code": code, "version": table_row(app, code).version}
    ]
    # A refused move tells nobody.
    assert move(ana, app, code, "Iowa").status_code == 302  # ben's clue is due
    assert [m for m in listener.get_received() if m["name"] == "changed"] == []


@pytest.mark.parametrize("database", databases())
def test_migration_0023_adds_and_removes_the_seats_state_iq_game(tmp_path, database):
    """0023 gives each seat of a duel its own side (L-Q5), set to NULL when that game goes,
    keeping the seats already there; its downgrade takes the column away and keeps them too."""
    from flask_migrate import downgrade, upgrade

    with empty_database(tmp_path, database):
        upgrade(revision="0022_live_dashing")
        host = write_open_table("state-iq")
        upgrade(revision="0023_live_state_iq")
        assert "state_iq_game_id" in seat_columns()
        key = seat_foreign_key("state_iq_game")
        assert key["constrained_columns"] == ["state_iq_game_id"]
        assert key["options"].get("ondelete") == "SET NULL"
        assert seat_users() == [(0, host), (1, None)]
        downgrade(revision="0022_live_dashing")
        assert "state_iq_game_id" not in seat_columns() and "dashing_round_id" in seat_columns()
        assert seat_users() == [(0, host), (1, None)]
        upgrade(revision="0023_live_state_iq")
        assert "state_iq_game_id" in seat_columns()
