"""Games with classmates on the student's dashboard (issue 22, ruling L-T14), through the Flask
client: a Border-Up race, a Dashing States race and a State IQ duel with a classmate store rounds of
their modes at the live table's level, yet the record and best times against the computer stay as
they were; the dashboard's "Games with classmates" says, in plain words, what was played and won
(a card game's table too), and a game given up with no result is counted nowhere. Every answer
given at the table stays a review."""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import re

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert

from tests.web import test_live_dashing as dashing
from tests.web import test_live_race as race
from tests.web.live_support import (
    join,
    open_table,
    post,
    review_rows,
    seat_rows,
    seats_of,
    start_table,
    state_of,
    table_row,
)
from trainer.dashboard_data import ClassmatesRecord, GameRecord, PersonalBest
from trainer.quiz import state_iq_duel as duel
from trainer.web import dashboards
from trainer.web.extensions import db
from trainer.web.models import BorderUpRound, DashingRound, LiveSeat, StateIqGame, utcnow

pytestmark = pytest.mark.usefixtures("live_seeds")

DASHBOARD = "/progress/"
#: ana's games against the computer before any live table, at the live tables' level (easy).
SOLO_RECORDS = [
    GameRecord("State IQ", "easy", won=0, lost=1, drawn=0),
    GameRecord("Dashing States", "easy", won=1, lost=0, drawn=0),
    GameRecord("Border-Up", "easy", won=1, lost=0, drawn=0),
]
SOLO_BESTS = [
    PersonalBest("Dashing States", "easy", 45.0),
    PersonalBest("Border-Up", "easy", 30.0),
]


def solo_games(app: Flask, student_id: int) -> None:
    """One finished game of each Level 1 mode against the computer at easy, as their pages store
    them: a Border-Up race won in 30 s, a Dashing States race won in 45 s, a State IQ game lost."""
    common = {"student_id": student_id, "level": "easy", "seed": 1}
    with app.app_context():
        db.session.execute(
            insert(BorderUpRound),
            [
                {
                    **common,
                    "token": "solo-b",
                    "hand": [],
                    "computer_hand": [],
                    "result": "won",
                    "seconds": 30.0,
                }
            ],
        )
        db.session.execute(
            insert(DashingRound),
            [{**common, "token": "solo-d", "cards": [], "result": "won", "seconds": 45.0}],
        )
        db.session.execute(
            insert(StateIqGame),
            [
                {
                    **common,
                    "token": "solo-q",
                    "power_card": 1,
                    "student_card": "CO",
                    "computer_card": "UT",
                    "first_guesser": "student",
                    "moves": [],
                    "recorded": [],
                    "result": "lost",
                }
            ],
        )
        db.session.commit()


@pytest.fixture
def letters_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal each State IQ duel with the Power card ABC: its first clue is a letter the server gives
    (Q1), so each side may guess at once, with no border state to name first."""
    real = duel.deal_duel

    def dealt(weakest, deck, seed):
        power = next(card for card in deck.power_cards if card.clue_code == "ABC")
        return dataclasses.replace(real(weakest, deck, seed), power=power.id)

    monkeypatch.setattr(duel, "deal_duel", dealt)


def records(app: Flask, student_id: int) -> tuple[list, list, list]:
    """The student's record and best times against the computer, and their games with classmates."""
    with app.app_context():
        return (
            dashboards.game_records(student_id),
            dashboards.personal_bests(student_id),
            dashboards.classmates_records(student_id),
        )


def box(page: str, chart_id: str) -> str:
    """One chart of the dashboard, as the page has it."""
    found = re.search(
        rf'<figure class="chart-box" aria-labelledby="{chart_id}-title">.*?</figure>', page, re.S
    )
    assert found, chart_id
    return found.group(0)


def classmates_lines(page: str) -> list[str]:
    """The lines of the dashboard's "Games with classmates", as a screen reader reads them."""
    found = re.search(
        r'<section class="chart-box" aria-labelledby="classmates-title">(.*?)</section>', page, re.S
    )
    if found is None:
        return []
    items = re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]


def dashboard(client: FlaskClient) -> str:
    response = client.get(DASHBOARD)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def duel_tie(app: Flask, ana: FlaskClient, ben: FlaskClient) -> str:
    """A State IQ duel (L-Q1) in which each student guesses the other's card at the first guess: a
    tie (Q3)."""
    code = start_table(app, ana, [ben], game="state-iq", players="2")
    sides = seat_rows(app, code, StateIqGame, LiveSeat.state_iq_game_id)
    first = 0 if sides[0].first_guesser == "student" else 1
    clients = {0: ana, 1: ben}
    for seat in (first, 1 - first):
        guess = sides[seat].computer_card  # the classmate's card, as the seat's side stores it
        answered = post(
            clients[seat], code, "state-iq", answer=guess, turn=table_row(app, code).ply
        )
        assert answered.status_code == 302
    assert [result for *_x, result in seats_of(app, code)] == ["drawn", "drawn"]
    return code


def card_game(app: Flask, ana: FlaskClient, ben: FlaskClient) -> list[str | None]:
    """A table of Play the Ranks for two, played to its end by the first legal move each time (L-T3,
    L-T4); each seat's result."""
    code = open_table(ana, game="play-the-ranks", players="2")
    assert join(ben, code).status_code == 302
    assert post(ana, code, "start", version=table_row(app, code).version).status_code == 302
    by_seat = {0: ana, 1: ben}
    for _ in range(400):
        row = table_row(app, code)
        if row.status == "over":
            break
        state = state_of(app, code)
        action = state.legal_actions()[0]
        post(by_seat[state.current_player()], code, "move", ply=row.ply, action=action)
    assert table_row(app, code).status == "over"
    return [result for *_x, result in seats_of(app, code)]


def test_races_and_a_duel_with_a_classmate_are_not_games_against_the_computer(
    app, school, players, letters_first
):
    """L-T14 (L-R1, L-D1, L-Q5): after ana wins a Border-Up race against ben, loses a Dashing States
    race to him and ties a State IQ duel, all at the table's level (easy), her record and best times
    against the computer are what they were, on the dashboard too; her games with classmates say
    what happened, and so do ben's, who has no game against the computer at all."""
    ana, ben = players["ana"], players["ben"]
    solo_games(app, school["ana"])
    computer, bests, classmates = records(app, school["ana"])
    assert (computer, bests, classmates) == (SOLO_RECORDS, SOLO_BESTS, [])
    before = dashboard(ana)
    assert "Games with classmates" not in before  # nothing played with them: no empty record

    # ana calls right first: she wins the race, in far less than her 30 s against the computer.
    code = race.start_race(app, ana, ben)
    hand = race.hands(app, code)[0].hand
    assert race.call(ana, code, race.right_call(app, hand)).status_code == 302
    assert race.hands(app, code)[0].result == "won" and race.hands(app, code)[0].seconds < 30
    # ana's call has the first card's capital wrong: ben wins the Dashing States race.
    code = dashing.start_race(app, ana, ben)
    cards = dashing.rounds(app, code)[0].cards
    assert (
        dashing.call(ana, code, dashing.call_data(app, cards, wrong_capital=True)).status_code
        == 302
    )
    assert [result for *_x, result in seats_of(app, code)] == ["lost", "won"]
    duel_tie(app, ana, ben)

    assert records(app, school["ana"]) == (
        SOLO_RECORDS,
        SOLO_BESTS,
        [
            ClassmatesRecord("Border-Up race", played=1, won=1, drawn=0),
            ClassmatesRecord("Dashing States race", played=1, won=0, drawn=0),
            ClassmatesRecord("State IQ duel", played=1, won=0, drawn=1),
        ],
    )
    after = dashboard(ana)
    for chart_id in ("games", "bests"):
        assert box(after, chart_id) == box(before, chart_id)
    assert "You played 3 games against the computer: 2 won, 1 lost, 0 drawn" in after
    assert classmates_lines(after) == [
        "Border-Up race: 1 game, you won it.",
        "Dashing States race: 1 game.",
        "State IQ duel: 1 game, a tie.",
    ]
    assert "They are not counted as games against the computer." in after

    assert records(app, school["ben"]) == (
        [],
        [],
        [
            ClassmatesRecord("Border-Up race", played=1, won=0, drawn=0),
            ClassmatesRecord("Dashing States race", played=1, won=1, drawn=0),
            ClassmatesRecord("State IQ duel", played=1, won=0, drawn=1),
        ],
    )
    bens = dashboard(ben)
    assert "No games played yet." in box(bens, "games")
    assert "No personal bests yet." in box(bens, "bests")
    assert classmates_lines(bens) == [
        "Border-Up race: 1 game.",
        "Dashing States race: 1 game, you won it.",
        "State IQ duel: 1 game, a tie.",
    ]
    # cai played with nobody: no record of games with classmates at all.
    assert classmates_lines(dashboard(players["cai"])) == []

    # Every answer given at the tables is still a review, in each round's own token (L-R2, L-D2, L-Q5).
    modes = {row.mode for row in review_rows(app, school["ana"])}
    assert modes == {"border_up", "dashing_states", "state_iq"}


def test_a_card_game_with_classmates_counts_there_and_a_game_given_up_nowhere(app, school, players):
    """L-T14, L-T13: a card game's table played to its end counts among the games with classmates
    of each student, by its seat's result; a race given up with no result after a day counts
    nowhere, neither with classmates nor against the computer."""
    ana, ben = players["ana"], players["ben"]
    results = card_game(app, ana, ben)
    assert set(results) <= {"won", "lost", "drawn"}
    for seat, name in enumerate(("ana", "ben")):
        won, drawn = results[seat] == "won", results[seat] == "drawn"
        assert records(app, school[name]) == (
            [],
            [],
            [ClassmatesRecord("Play the Ranks", played=1, won=int(won), drawn=int(drawn))],
        )
        words = "1 game, you won it" if won else "1 game, a tie" if drawn else "1 game"
        assert classmates_lines(dashboard(players[name])) == [f"Play the Ranks: {words}."]

    race.start_race(app, ana, ben)
    with time_machine.travel(utcnow() + dt.timedelta(hours=25), tick=False):
        result = app.test_cli_runner().invoke(args=["live-tidy"])
        assert result.exit_code == 0 and "1 live table given up." in result.output
    for name in ("ana", "ben"):
        computer, bests, classmates = records(app, school[name])
        assert (computer, bests) == ([], [])
        assert [record.game for record in classmates] == ["Play the Ranks"]


def test_the_words_of_a_record_name_no_zero() -> None:
    """L-T14: the record says what was played and won in plain words; nothing is said of a zero."""
    assert ClassmatesRecord("Border-Up race", 1, 1, 0).words == "1 game, you won it"
    assert ClassmatesRecord("Border-Up race", 1, 0, 0).words == "1 game"
    assert ClassmatesRecord("State IQ duel", 1, 0, 1).words == "1 game, a tie"
    assert ClassmatesRecord("GeoPlunge 51", 3, 2, 1).words == "3 games, you won 2 and 1 was a tie"
    assert ClassmatesRecord("GeoPlunge 51", 4, 0, 2).words == "4 games, 2 were ties"
    assert ClassmatesRecord("GeoPlunge 51", 2, 0, 0).words == "2 games"
    assert ClassmatesRecord("GeoPlunge 51", 1200, 1000, 0).words == "1,200 games, you won 1,000"
