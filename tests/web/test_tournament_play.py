"""A class tournament's round match scored in the app, through the Flask client (issue #11, P-K6).

Rulings checked: K1 (more games won wins the match, equal is a tie), K2 (the morning order and the
afternoon draw and picks; a game not finished by the bell does not count), R2 (a statehood draw
decides who starts where the game before does not), P-K2 (the winner of the Border-Up just before
guesses first in State IQ, the winner of the Dashing States just before leads Play the Ranks),
P-K6 (a match scored in the app: a game's time is when it is recorded, the result is taken from
the games recorded by the bell when someone finishes the match, and the teacher's typed result and
the app's finish exclude each other; a game or a finish entered by one team stands only once the
other team, or the teacher, confirms it, and a confirmation does not change the game's time).
"""

from __future__ import annotations

import datetime as dt
import html as htmllib
import random
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from tests.conftest import client_for
from tests.web.test_security import assert_strict_page
from tests.web.test_teach import (
    World,
    token_for,
)
from tests.web.test_tournaments import (
    Teacher,
    add_students,
    dump,
    matches,
    tournament,
)
from trainer.games.combo import statehood_draw
from trainer.web.extensions import db
from trainer.web.models import (
    ClassMembership,
    Tournament,
    TournamentGame,
    TournamentMatch,
    TournamentTeam,
    User,
)
from trainer.web.teach.forms import MAX_MATCH_GAMES
from trainer.web.teach.tournaments import Board
from trainer.web.tournament_play.scoring import MAX_GAMES

# --- Helpers ---------------------------------------------------------------------------------------


@pytest.fixture
def teacher(world: World) -> Teacher:
    return Teacher(world.client("teacher"))


def make_tournament(world: World, teacher: Teacher, teams: int = 2) -> int:
    """Teams of 2 formed by the teacher: team 1 is river and kid00, team 2 kid01 and kid02, team 3
    kid03 and kid04, team 4 kid05 and kid06; the class's other students do not play. Round 1 is
    paired; in round 1 of two teams, team 1 is side A."""
    students = {2: 4, 3: 8, 4: 11}[teams]  # enough for the form to offer that many teams (P-K4)
    kids = add_students(world, students - 1)
    members = [world.student.id, *kids]
    choice = {
        f"team_{sid}": str(i // 2 + 1) if i < 2 * teams else "0" for i, sid in enumerate(members)
    }
    tid = teacher.new(world.class_a, teams="manual", **choice)
    assert teacher.advance(tid, 0).status_code == 302
    return tid


def team_id(app: Flask, tid: int, number: int) -> int:
    with app.app_context():
        return db.session.execute(
            select(TournamentTeam.id).where(
                TournamentTeam.tournament_id == tid, TournamentTeam.number == number
            )
        ).scalar_one()


def the_match(app: Flask, tid: int, round_number: int) -> TournamentMatch:
    return next(m for m in matches(app, tid, round_number) if m.b_team_id is not None)


def match_row(app: Flask, mid: int) -> TournamentMatch:
    with app.app_context():
        row = db.session.get(TournamentMatch, mid)
        db.session.expunge(row)
        return row


def match_games(app: Flask, mid: int) -> list[TournamentGame]:
    with app.app_context():
        rows = (
            db.session.execute(
                select(TournamentGame)
                .where(TournamentGame.match_id == mid)
                .order_by(TournamentGame.number)
            )
            .scalars()
            .all()
        )
        for row in rows:
            db.session.expunge(row)
        return list(rows)


def expected_draw(app: Flask, key: str):
    """The statehood draw the app makes for ``key`` (seeded, R2)."""
    return statehood_draw(app.extensions["deck"], random.Random(key))


def text_of(html: str) -> str:
    """The page's text, tags stripped and spaces collapsed."""
    text = " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r"\s+([.,;:)])", r"\1", re.sub(r"\(\s+", "(", text))


class Table:
    """One device at the table: a signed-in client (a student of either team, or the teacher) and
    the match's URLs. With ``other`` (a student of the other team), each game recorded here is
    confirmed there at once, as the two teams do at the table (P-K6)."""

    def __init__(self, client: FlaskClient, tid: int, mid: int, other: Table | None = None):
        self.client = client
        self.token = token_for(client)
        self.url = f"/tournaments/{tid}/matches/{mid}"
        self.other = other

    def page(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.status_code
        return response.get_data(as_text=True)

    def text(self) -> str:
        return text_of(self.page())

    def post(self, path: str, prefix: str, data: dict[str, str] | None = None):
        fields = {f"{prefix}-{k}": v for k, v in (data or {}).items()}
        fields[f"{prefix}-csrf_token"] = self.token
        return self.client.post(self.url + path, data=fields)

    def due(self) -> tuple[int, str] | None:
        """The game the page asks about: its number and slug."""
        html = self.page()
        number = re.search(r'name="game-number" type="hidden" value="(\d+)"', html)
        if number is None:
            return None
        game = re.search(r'name="game-game" type="hidden" value="([a-z-]+)"', html)
        return int(number.group(1)), game.group(1)

    def game(self, number: int, slug: str, winner: str):
        return self.post("/games", "game", {"number": str(number), "game": slug, "winner": winner})

    def record(self, winner: str) -> tuple[int, str]:
        """Record the game due as the page shows it: "a", "b" or "tie"; the other team confirms it."""
        due = self.due()
        assert due is not None, "no game is due"
        response = self.game(*due, winner)
        assert response.status_code == 302 and response.location == self.url
        if self.other is not None:
            self.other.confirm()
        return due

    def pending(self) -> str | None:
        """The entry of the game the page asks this device to answer (P-K6), if any."""
        found = re.search(r'name="confirm-expected" type="hidden" value="([\d.]+)"', self.page())
        return found.group(1) if found else None

    def confirm(self, answer: str = "confirm", expected: str | None = None, back: str = ""):
        """Answer the game waiting for this device's team: "confirm", "dispute", or (the teacher)
        a corrected result, "a", "b" or "tie"."""
        expected = expected or self.pending()
        assert expected is not None, "no game waits for this device's answer"
        response = self.post(
            "/confirm", "confirm", {"expected": expected, "answer": answer, "back": back}
        )
        assert response.status_code == 302
        return response

    def answer_finish(self, answer: str = "confirm", expected: int | None = None, back: str = ""):
        """Answer the other team's "Finish the match": "confirm" or "decline"."""
        if expected is None:
            found = re.search(r'name="answer-expected" type="hidden" value="(\d+)"', self.page())
            assert found is not None, "no finish waits for this device's answer"
            expected = int(found.group(1))
        return self.post(
            "/finish/answer", "answer", {"expected": str(expected), "answer": answer, "back": back}
        )

    def finish_agreed(self, expected: int | None = None) -> None:
        """Finish the match here, and the other team confirms it (P-K6)."""
        assert self.other is not None
        assert self.finish(expected).status_code == 302
        assert "You asked to finish the match" in self.flashed()
        assert self.other.answer_finish().status_code == 302

    def draw(self):
        return self.post("/draw", "draw", {"expected": "draw"})

    def pick(self, slug: str, expected: int):
        return self.post(
            "/pick", "pick", {"expected": str(expected), "game": slug, "submit": "Pick"}
        )

    def finish(self, expected: int | None = None):
        if expected is None:
            expected = int(
                re.search(r'name="finish-expected" type="hidden" value="(\d+)"', self.page()).group(
                    1
                )
            )
        return self.post("/finish", "finish", {"expected": str(expected)})

    def undo(self, expected: int):
        return self.post("/undo", "undo", {"expected": str(expected)})

    def flashed(self) -> str:
        """The messages waiting for the next page."""
        found = re.findall(r'<p class="flash flash--\w+">(.*?)</p>', self.page(), flags=re.DOTALL)
        return " ".join(htmllib.unescape(" ".join(found)).split())


def table_for(world: World, who: str, tid: int, mid: int, other: str | None = None) -> Table:
    """``who``: a username, or "teacher"; ``other``: a student of the other team who confirms
    each game recorded (P-K6)."""
    username = world.teacher.username if who == "teacher" else who
    partner = None if other is None else table_for(world, other, tid, mid)
    return Table(client_for(world.app, username), tid, mid, partner)


def ring_the_bell(app: Flask, tid: int, mid: int, minutes: int) -> None:
    """Move the round clock and the games recorded so far ``minutes`` into the past, as if played then."""
    delta = dt.timedelta(minutes=minutes)
    with app.app_context():
        row = db.session.get(Tournament, tid)
        row.clock_started_at = row.clock_started_at - delta
        for game in db.session.execute(
            select(TournamentGame).where(TournamentGame.match_id == mid)
        ).scalars():
            game.entered_at = game.entered_at - delta
        db.session.commit()


def test_the_app_takes_as_many_games_as_the_teachers_form():
    assert MAX_GAMES == MAX_MATCH_GAMES


# --- A morning match ---------------------------------------------------------------------------------


def test_a_morning_match_scored_in_the_app(world, teacher):
    """K2: Border-Up, State IQ, Dashing States, Play the Ranks, then again; P-K2: the Border-Up winner
    just before guesses first in State IQ; R2: after a tied Dashing States a seeded statehood draw
    decides who leads Play the Ranks; K2: a game recorded after the bell does not count; K1: the games
    that count decide the match, written where the teacher's result goes, and the standings count it."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    one, two = team_id(app, tid, 1), team_id(app, tid, 2)
    assert (match.a_team_id, match.b_team_id) == (one, two)
    assert teacher.clock(tid, 1).status_code == 302

    # The teacher's control page links the match; the student's lists show it.
    control = teacher.page(tid)
    assert f'href="/tournaments/{tid}/matches/{match.id}">Score this match in the app' in control
    river = table_for(world, "river", tid, match.id, other="kid01")
    mine = text_of(river.client.get("/tournaments/").get_data(as_text=True))
    assert (
        "Your team: Team 1 (kid00, river)" in mine and "Team 2" in mine and "Open the match" in mine
    )
    combo = text_of(river.client.get("/play/combo/").get_data(as_text=True))
    assert (
        "Your class tournament, Friday Cup: round 1, your team (Team 1) plays Team 2 — open the match."
        in combo
    )

    html = river.page()
    assert_strict_page(html)
    page = text_of(html)
    assert "Round 1: Team 1 vs Team 2" in page and "morning round, 20 minutes" in page
    assert "Team 1: kid00, river" in page and "Team 2: kid01, kid02" in page
    assert 'data-clock-left="' in html and "data-clock-reload" in html
    assert (
        "Now: game 1, Border-Up" in page
        and "Border-Up is a race: both teams start together." in page
    )

    assert river.record("a") == (1, "border-up")
    assert "Game 1, Border-Up: Team 1 won." in river.flashed()
    page = river.text()
    assert "Now: game 2, State IQ" in page
    assert "Team 1 won Border-Up just before, so Team 1 guesses first." in page
    # A student of the other team may keep the score just as well (and river's team confirms, P-K6).
    kid = table_for(world, "kid01", tid, match.id, other="river")
    assert kid.record("b") == (2, "state-iq")
    assert river.record("tie") == (3, "dashing-states")
    # Dashing States was a tie: the statehood draw of game 4 decides (R2), seeded by the match.
    a_card, b_card, winner = expected_draw(
        app, f"{tournament(app, tid).seed}/match/{match.id}/game/4"
    )
    leader = "Team 1" if winner.value == "a" else "Team 2"
    page = river.text()
    assert "Now: game 4, Play the Ranks" in page
    assert (
        f"Dashing States just before was a tie, so a statehood draw decides: Team 1 drew {a_card.name} "
        f"({a_card.statehood_rank}" in page
    )
    assert (
        f"Team 2 drew {b_card.name} ({b_card.statehood_rank}" in page
        and f". {leader} leads the first trick." in page
    )
    assert min(a_card, b_card, key=lambda c: c.statehood_rank) is (
        a_card if leader == "Team 1" else b_card
    )
    sentence = re.search(r"Dashing States just before was a tie[^<]*", river.page()).group(0)
    assert sentence in river.page(), "the draw is the same on every view"
    assert river.record("a") == (4, "play-the-ranks")
    # After game 4, the order starts again (K2).
    assert river.due() == (5, "border-up")

    # The bell: the clock (and the four games) 21 minutes back; game 5 is recorded after the bell.
    ring_the_bell(app, tid, match.id, 21)
    html = river.page()
    assert "Time is up" in html and "The bell has rung." in html
    assert river.record("b") == (5, "border-up")
    assert "It was recorded after the bell, so it does not count." in river.flashed()
    page = river.text()
    assert (
        "Games won (counted): Team 1 2, Team 2 1, 1 tied; 1 recorded after the bell, not counted."
        in page
    )
    assert page.count("Yes") == 4 and "No: after the bell" in page
    # The teacher sees the live score of the games that count next to the pairing.
    control = text_of(teacher.page(tid))
    assert "In the app: Team 1 2–1 Team 2, 1 tied (5 games recorded, 1 after the bell)" in control

    # Finish: asked by one team, confirmed by the other (P-K6); the result is taken from the counted
    # games (K1) into the match row.
    assert river.finish().status_code == 302
    assert (
        "You asked to finish the match at Team 1 2–1 Team 2, 1 tied. It is over when Team 2 confirms it"
        in river.flashed()
    )
    assert match_row(app, match.id).entered_at is None
    assert kid.answer_finish().status_code == 302
    assert (
        "Match over: Team 1 2–1 Team 2, 1 tied: Team 1 wins (1 game after the bell not counted)."
        in kid.flashed()
    )
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.tied_games, row.winner_id, row.entered_by) == (
        2,
        1,
        1,
        one,
        "app",
    )
    assert row.entered_at is not None
    page = river.text()
    assert (
        "Team 1 wins the match" in page
        and "Finish the match" not in page
        and "Now: game" not in page
    )
    # The control page, the projector and the standings show it.
    control = text_of(teacher.page(tid))
    assert "Team 1 2–1 Team 2, 1 tied: Team 1 wins. Finished in the app: the games." in control
    assert "Standings after round 1" in control
    standings = teacher.page(tid)
    assert re.search(
        r'<th scope="row">Team 1</th>\s*<td class="num">1</td>\s*<td class="num">0</td>', standings
    )
    assert "2–1 (1 tied):" in text_of(teacher.projector(tid)) and "Team 1 wins" in text_of(
        teacher.projector(tid)
    )
    assert "Won 2–1" in text_of(river.client.get("/tournaments/").get_data(as_text=True))
    assert "Lost 1–2" in text_of(kid.client.get("/tournaments/").get_data(as_text=True))

    # Finished twice, or a game recorded after the result: nothing changes.
    before = dump(app)
    assert river.finish(5).status_code == 302
    assert (
        "This match's result is already in (Team 1 2–1 Team 2, 1 tied: Team 1 wins; finished in the app)."
        in river.flashed()
    )
    assert river.game(6, "state-iq", "a").status_code == 302
    assert "already in" in river.flashed()
    assert river.undo(5).status_code == 302 and "already in" in river.flashed()
    assert dump(app) == before
    # The teacher's typed result is refused too, saying why.
    assert teacher.result(tid, match.id, 0, 3, 0).status_code == 302
    assert "That result was already entered when the match was finished in the app" in text_of(
        teacher.client.get("/teach/").get_data(as_text=True)
    )
    assert dump(app) == before
    # The round can be paired on: the app's result is a result like any other.
    assert teacher.advance(tid, 1).status_code == 302 and tournament(app, tid).round == 2


def test_games_count_when_the_clock_was_never_started(world, teacher):
    """K2 needs the round clock: without it every game recorded counts, and the page says so (P-K6)."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    page = river.text()
    assert (
        "The 20-minute clock has not started." in page and "every game recorded here counts" in page
    )
    river.record("b")
    river.record("b")
    river.record("a")
    page = river.text()
    assert "Games won: Team 1 1, Team 2 2." in page and "No: after the bell" not in page
    river.finish_agreed(3)
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.tied_games, row.winner_id) == (
        1,
        2,
        0,
        team_id(app, tid, 2),
    )


def test_a_tied_match_and_a_tied_border_up(world, teacher):
    """K1: equal games won is a tied match; R2 and P-K2: after a tied Border-Up, a draw decides who
    guesses first in State IQ."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "teacher", tid, match.id)  # the teacher may score it too
    river.record("tie")
    a_card, b_card, winner = expected_draw(
        app, f"{tournament(app, tid).seed}/match/{match.id}/game/2"
    )
    first = "Team 1" if winner.value == "a" else "Team 2"
    page = river.text()
    assert (
        f"Border-Up just before was a tie, so a statehood draw decides: Team 1 drew {a_card.name}"
        in page
    )
    assert f"Team 2 drew {b_card.name}" in page
    assert f"{first} guesses first." in page
    river.record("a")
    river.record("b")
    assert river.finish(3).status_code == 302
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.tied_games, row.winner_id, row.entered_by) == (
        1,
        1,
        1,
        None,
        "app",
    )
    assert "A tied match" in river.text()


# --- An afternoon match --------------------------------------------------------------------------------


def test_an_afternoon_match_draw_picks_and_order(world, teacher):
    """K2: each team draws a card, the better statehood rank picks a game, the other team a different
    one, and the two alternate; R2 and P-K2: State IQ as the first game is started by a draw, later by
    the winner of the Border-Up just before."""
    app = world.app
    tid = make_tournament(world, teacher)
    teacher.result(tid, the_match(app, tid, 1).id, 2, 0, 0)
    for number in range(1, 4):  # rounds 2-4, paired and entered
        assert teacher.advance(tid, number).status_code == 302
        teacher.result(tid, the_match(app, tid, number + 1).id, 2, 0, 0)
    assert teacher.advance(tid, 4).status_code == 302
    assert tournament(app, tid).round == 5
    match = the_match(app, tid, 5)
    assert match.a_team_id == team_id(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    page = river.text()
    assert (
        "afternoon round, 12 minutes" in page
        and "Draw the cards" in page
        and "Now: game" not in page
    )

    before = dump(app)
    assert river.pick("state-iq", 0).status_code == 302
    assert "Draw the cards first" in river.flashed()
    assert river.game(1, "state-iq", "a").status_code == 302
    assert "Draw the cards and pick the two games first." in river.flashed()
    assert dump(app) == before

    # The draw, seeded by the match: the card closer to 1 in statehood picks first.
    assert river.draw().status_code == 302
    a_card, b_card, winner = expected_draw(
        app, f"{tournament(app, tid).seed}/match/{match.id}/picks"
    )
    picker, other = ("Team 1", "Team 2") if winner.value == "a" else ("Team 2", "Team 1")
    assert f"{picker} picks the first game." in river.flashed()
    assert match_row(app, match.id).draw == {
        "a": a_card.postal,
        "b": b_card.postal,
        "winner": winner.value,
    }
    page = river.text()
    assert (
        f"Team 1 drew {a_card.name} ({a_card.statehood_rank}" in page
        and f"{picker}: pick the first game" in page
    )
    after_draw = dump(app)
    assert river.draw().status_code == 302
    assert "The cards were already drawn" in river.flashed()
    assert dump(app) == after_draw

    # The first pick, then the same form again (a replay), then the same game again: refused.
    assert river.pick("state-iq", 0).status_code == 302
    assert f"{picker} picked State IQ." in river.flashed()
    picked = dump(app)
    assert river.pick("border-up", 0).status_code == 302
    assert "That pick was already made" in river.flashed()
    response = river.pick("state-iq", 1)
    assert response.status_code == 400
    assert "State IQ was picked first: the other team picks a different game." in text_of(
        response.get_data(as_text=True)
    )
    assert_strict_page(response.get_data(as_text=True))
    assert river.pick("", 1).status_code == 400
    assert river.pick("chess", 1).status_code == 400
    assert dump(app) == picked
    assert f"{other}: pick a different game" in river.text()
    assert river.pick("border-up", 1).status_code == 302
    assert match_row(app, match.id).picks == ["state-iq", "border-up"]
    done = dump(app)
    assert river.pick("dashing-states", 2).status_code == 302
    assert "Both games are already picked (State IQ then Border-Up)." in river.flashed()
    assert dump(app) == done

    # The order: the two picks in turn (K2); who guesses first in State IQ (R2, then P-K2).
    page = river.text()
    assert (
        f"1. State IQ ({picker}’s pick)" not in page
    )  # the list is an <ol>: numbers are the browser's
    assert f"State IQ ({picker}’s pick)" in page and f"Border-Up ({other}’s pick)" in page
    g1_a, _g1_b, g1_winner = expected_draw(
        app, f"{tournament(app, tid).seed}/match/{match.id}/game/1"
    )
    first = "Team 1" if g1_winner.value == "a" else "Team 2"
    assert (
        f"It is the first game of the match, so a statehood draw decides: Team 1 drew {g1_a.name}"
        in page
    )
    assert f"{first} guesses first." in page
    assert river.record("a") == (1, "state-iq")
    assert river.record("b") == (2, "border-up")
    assert "Team 2 won Border-Up just before, so Team 2 guesses first." in river.text()
    assert river.record("b") == (3, "state-iq")
    assert river.record("tie") == (4, "border-up")
    assert river.due() == (5, "state-iq")
    river.finish_agreed(4)
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.tied_games, row.winner_id) == (
        1,
        2,
        1,
        team_id(app, tid, 2),
    )


# --- The teacher's result and the app's finish ---------------------------------------------------------


def test_the_teachers_typed_result_first_refuses_the_apps_finish(world, teacher):
    """P-K6: whichever result is saved first counts; the app is told the teacher entered it."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    river.record("a")
    river.record("a")
    control = text_of(teacher.page(tid))
    assert "In the app: Team 1 2–0 Team 2 (2 games recorded) · Open the match in the app" in control
    assert teacher.result(tid, match.id, 0, 3, 0).status_code == 302
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.winner_id, row.entered_by) == (
        0,
        3,
        team_id(app, tid, 2),
        "teacher",
    )
    before = dump(app)
    assert river.finish(2).status_code == 302
    message = river.flashed()
    assert (
        "This match's result is already in (Team 1 0–3 Team 2: Team 2 wins; entered by the teacher). Nothing was changed."
        in message
    )
    assert river.game(3, "dashing-states", "a").status_code == 302
    assert "entered by the teacher" in river.flashed()
    assert dump(app) == before
    page = river.text()
    assert (
        "Team 2 wins the match" in page
        and "Your teacher entered this result; the games recorded here were not used." in page
    )
    # The teacher takes the typed result back: the app may finish the match after all.
    assert teacher.undo(tid, f"match-{match.id}").status_code == 302
    assert match_row(app, match.id).entered_by is None
    river.finish_agreed(2)
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.winner_id, row.entered_by) == (
        2,
        0,
        team_id(app, tid, 1),
        "app",
    )


def test_the_apps_finish_first_refuses_the_teachers_typed_result(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    river.record("b")
    # The teacher's page was loaded before the finish: the form is still on it.
    assert f"m{match.id}-a_games" in teacher.page(tid)
    river.finish_agreed(1)
    before = dump(app)
    assert teacher.result(tid, match.id, 4, 0, 0).status_code == 302
    message = text_of(teacher.client.get("/teach/").get_data(as_text=True))
    assert (
        "That result was already entered when the match was finished in the app (Team 1 0–1 Team 2: Team 2 wins). Nothing was changed."
        in message
    )
    assert dump(app) == before
    # The teacher's undo takes the app's result back too: the table plays on and finishes again.
    assert "Undo the last result" in teacher.page(tid)
    assert teacher.undo(tid, f"match-{match.id}").status_code == 302
    row = match_row(app, match.id)
    assert (row.entered_at, row.entered_by, row.winner_id) == (None, None, None)
    assert river.record("a") == (2, "state-iq")
    river.finish_agreed(2)
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.winner_id, row.entered_by) == (1, 1, None, "app")


# --- Refusals ----------------------------------------------------------------------------------------


def test_a_game_posted_twice_or_for_another_game_changes_nothing(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    river.record("a")
    before = dump(app)
    for number, slug, winner in [
        (1, "border-up", "b"),
        (1, "border-up", "a"),
        (2, "border-up", "a"),
        (3, "dashing-states", "a"),
        (0, "state-iq", "a"),
    ]:
        assert river.game(number, slug, winner).status_code == 302
        assert "That game was already recorded, or it is not the game due now" in river.flashed()
    for winner in ("", "x", "A"):
        assert river.game(2, "state-iq", winner).status_code == 302
        assert "Nothing was changed" in river.flashed()
    assert dump(app) == before
    assert [g.winner_id for g in match_games(app, match.id)] == [team_id(app, tid, 1)]


def test_the_last_game_can_be_taken_back(world, teacher):
    """P-K6: a team takes back its own last game while it waits for the other team; a game that
    stands (both teams agreed) only the teacher takes back; the other team disputes rather than
    taking back a game it did not enter."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id)  # nobody confirms at once here
    kid = table_for(world, "kid01", tid, match.id)
    before = dump(app)
    assert river.undo(1).status_code == 302 and "Nothing was taken back" in river.flashed()
    river.record("a")
    assert "Take back game 1" in river.page() and "Take back game 1" not in kid.page()
    assert kid.undo(1).status_code == 302
    assert (
        "Team 1 entered game 1: they may take it back. If it is wrong, dispute it. Nothing was taken back."
        in kid.flashed()
    )
    assert [g.number for g in match_games(app, match.id)] == [1]
    assert river.undo(1).status_code == 302
    assert "Taken back: game 1, Border-Up. Record it again." in river.flashed()
    assert dump(app) == before
    assert river.undo(1).status_code == 302 and "Nothing was taken back" in river.flashed()
    assert dump(app) == before

    river.record("a")
    kid.confirm()
    river.record("a")
    kid.confirm()
    assert "Take back" not in river.page() and "Take back" not in kid.page()
    after = dump(app)
    for table in (river, kid):
        assert table.undo(2).status_code == 302
        assert (
            "Game 2 stands: both teams agreed on it. Only your teacher can take it back now."
            in table.flashed()
        )
    assert dump(app) == after
    desk = table_for(world, "teacher", tid, match.id)
    assert "Take back game 2" in desk.page()
    assert desk.undo(2).status_code == 302
    assert "Taken back: game 2, State IQ. Record it again." in desk.flashed()
    assert [g.number for g in match_games(app, match.id)] == [1]
    assert river.record("b") == (2, "state-iq")
    river.undo(2)
    desk.undo(1)
    assert dump(app) == before


def test_finishing_needs_a_game_and_the_page_as_it_stands(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    before = dump(app)
    assert "Finish the match" not in river.page()
    assert river.finish(0).status_code == 302
    assert (
        "No game has been recorded yet: record each game as it ends, then finish the match."
        in river.flashed()
    )
    assert dump(app) == before
    river.record("a")
    river.record("b")
    recorded = dump(app)
    assert river.finish(1).status_code == 302  # an old page, from before game 2
    assert "A game was recorded or taken back since that page was shown" in river.flashed()
    assert dump(app) == recorded
    assert match_row(app, match.id).entered_at is None


def test_a_morning_match_has_no_draw_or_picks(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    before = dump(app)
    assert river.draw().status_code == 302 and "A morning match has no draw" in river.flashed()
    assert (
        river.pick("state-iq", 0).status_code == 302
        and "A morning match has no picks" in river.flashed()
    )
    assert dump(app) == before
    assert "Draw the cards" not in river.page()


def test_a_match_of_a_round_that_is_over_cannot_change(world, teacher):
    """Once the next round is paired, round 1's match is closed: its page shows the result only."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    river.record("a")
    assert teacher.result(tid, match.id, 1, 0, 0).status_code == 302
    assert teacher.advance(tid, 1).status_code == 302
    before = dump(app)
    for attempt in (
        lambda: river.game(2, "state-iq", "a"),
        lambda: river.finish(1),
        lambda: river.undo(1),
    ):
        assert attempt().status_code == 302
        assert "Round 1 is over: its matches can no longer change." in river.flashed()
    assert dump(app) == before
    page = river.text()
    assert "Team 1 wins the match" in page and "Now: game" not in page and "Take back" not in page


def test_a_match_of_a_finished_tournament_cannot_change(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    first = the_match(app, tid, 1)
    play_rounds_from_round_1(teacher, app, tid)
    assert teacher.advance(tid, 8).status_code == 302
    for _ in range(3):
        teacher.play_due(tid, "a")
    assert tournament(app, tid).stage == "finished"
    river = table_for(world, "river", tid, first.id)
    before = dump(app)
    assert river.game(1, "border-up", "a").status_code == 302
    assert "The tournament is over: nothing can change now." in river.flashed()
    assert river.finish(0).status_code == 302
    assert "The tournament is over" in river.flashed()
    assert dump(app) == before
    assert river.page()


def play_rounds_from_round_1(teacher: Teacher, app: Flask, tid: int) -> None:
    """Enter round 1's result, then pair and enter rounds 2-8 (team 1 wins each)."""
    teacher.result(tid, the_match(app, tid, 1).id, 1, 0, 0)
    for number in range(1, 8):
        assert teacher.advance(tid, number).status_code == 302
        match = the_match(app, tid, number + 1)
        a_wins = match.a_team_id == team_id(app, tid, 1)
        teacher.result(tid, match.id, 1 if a_wins else 0, 0 if a_wins else 1, 0)


def test_a_match_records_at_most_twenty_games(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "teacher", tid, match.id)
    for _ in range(MAX_GAMES):
        river.record("tie")
    assert river.due() is None and "the most a match takes" in river.text()
    before = dump(app)
    assert river.game(MAX_GAMES + 1, "border-up", "a").status_code == 302
    assert f"A match records at most {MAX_GAMES} games" in river.flashed()
    assert dump(app) == before
    assert river.finish(MAX_GAMES).status_code == 302
    assert match_row(app, match.id).tied_games == MAX_GAMES


def test_odd_forms_are_refused_without_a_server_error(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    junk = [
        {},
        {"expected": ""},
        {"expected": "abc"},
        {"expected": "-1"},
        {"number": "x", "game": "", "winner": "tie"},
        {"game": "x" * 500},
        {"expected": "1", "answer": "a"},
        {"expected": "1", "answer": "x" * 500},
        {"expected": "²", "answer": "confirm"},
        {"back": "//evil.example"},
    ]
    before = dump(app)
    paths = [
        ("/draw", "draw"),
        ("/pick", "pick"),
        ("/games", "game"),
        ("/undo", "undo"),
        ("/finish", "finish"),
        ("/confirm", "confirm"),
        ("/finish/answer", "answer"),
    ]
    for path, prefix in paths:
        for data in junk:
            response = river.post(path, prefix, data)
            assert response.status_code in (302, 400), (path, data, response.status_code)
            assert response.status_code == 400 or response.location == river.url, (
                "an answer goes back to the match"
            )
    assert dump(app) == before
    # Without the CSRF token: refused before the view.
    assert (
        river.client.post(
            river.url + "/games",
            data={"game-number": "1", "game-game": "border-up", "game-winner": "a"},
        ).status_code
        == 400
    )
    assert dump(app) == before


# --- The other team confirms (P-K6) ---------------------------------------------------------------------


def game_row(app: Flask, mid: int, number: int) -> TournamentGame:
    return next(g for g in match_games(app, mid) if g.number == number)


def user_id(app: Flask, username: str) -> int:
    with app.app_context():
        return db.session.execute(select(User.id).where(User.username == username)).scalar_one()


def test_one_student_of_one_team_alone_cannot_score_or_finish_a_match(world, teacher):
    """P-K6: a game river (Team 1) records waits for Team 2; neither river nor a teammate can confirm
    it, record past it or finish; kid01 (Team 2) confirms it. River's "Finish the match" only asks:
    the result is written when Team 2 confirms, by whom is recorded, and the standings count it then."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    one, two = team_id(app, tid, 1), team_id(app, tid, 2)
    river = table_for(world, "river", tid, match.id)
    mate = table_for(world, "kid00", tid, match.id)  # river's teammate
    kid = table_for(world, "kid01", tid, match.id)
    assert river.record("a") == (1, "border-up")
    assert (
        "Game 1, Border-Up: Team 1 won. It stands once Team 2 confirms it (or your teacher does)."
        in river.flashed()
    )
    game = game_row(app, match.id, 1)
    entry = kid.pending()
    assert (game.entered_by_id, game.entered_team_id, game.confirmed_at, game.confirmed_by_id) == (
        user_id(app, "river"),
        one,
        None,
        None,
    )
    page = river.text()
    assert (
        "Game 1, Border-Up: Team 1 won? Entered by river (Team 1). It stands once Team 2 confirms it, or the teacher does."
        in page
    )
    assert "Games won: Team 1 0, Team 2 0; 1 waiting for confirmation." in page
    assert (
        "Waiting for Team 2" in page
        and "Now: game 2" not in page
        and "Finish the match" not in page
    )
    assert river.pending() is None and mate.pending() is None, "Team 1 has no confirm button"
    assert "Confirm: Team 1 won" in kid.text() and "Dispute it" in kid.text()
    assert "Round 1" in text_of(kid.client.get("/tournaments/").get_data(as_text=True))
    assert "waiting for your team’s answer" in text_of(
        kid.client.get("/tournaments/").get_data(as_text=True)
    )

    # Team 1 alone changes nothing: no confirming its own game, no next game, no finish.
    before = dump(app)
    for table in (river, mate):
        assert table.confirm(expected=entry).status_code == 302
        assert (
            "Your team entered game 1: Team 2 confirms it (or your teacher). Nothing was changed."
            in table.flashed()
        )
    assert river.game(2, "state-iq", "a").status_code == 302
    assert "Game 1 waits for Team 2 to confirm it first. Nothing was changed." in river.flashed()
    assert river.finish(1).status_code == 302
    assert "Game 1 waits for Team 2 to confirm it first" in river.flashed()
    assert dump(app) == before

    # Team 2 confirms: the game stands, with who confirmed it, and keeps the time it was entered.
    assert kid.confirm().status_code == 302
    assert "Confirmed: game 1, Border-Up (Team 1 won). It stands." in kid.flashed()
    confirmed = game_row(app, match.id, 1)
    assert confirmed.confirmed_by_id == user_id(app, "kid01") and confirmed.confirmed_at is not None
    assert confirmed.entered_at == game.entered_at
    assert (
        "Now: game 2, State IQ" in river.text() and "Games won: Team 1 1, Team 2 0." in river.text()
    )
    assert kid.record("b") == (2, "state-iq")
    assert mate.confirm().status_code == 302  # Team 1's other student confirms Team 2's game

    # River asks to finish: nothing is written until Team 2 answers; nothing more is recorded meanwhile.
    assert river.finish(2).status_code == 302
    assert (
        "You asked to finish the match at Team 1 1–1 Team 2. It is over when Team 2 confirms it (or your teacher does)."
        in river.flashed()
    )
    row = match_row(app, match.id)
    assert (row.entered_at, row.winner_id, row.finish_asked_by_id, row.finish_asked_team_id) == (
        None,
        None,
        user_id(app, "river"),
        one,
    )
    assert (
        "Team 1 asks to finish the match" in kid.text()
        and "Confirm: finish the match" in kid.text()
    )
    assert "Confirm: finish the match" not in river.text() and "Finish the match" not in mate.text()
    asked = dump(app)
    for table in (river, mate):
        assert table.answer_finish(expected=2).status_code == 302
        assert (
            "Your team asked to finish the match: Team 2 answers (or your teacher). Nothing was changed."
            in table.flashed()
        )
    assert (
        river.finish(2).status_code == 302 and "Team 1 asked to finish the match" in river.flashed()
    )
    assert kid.finish(2).status_code == 302 and "Team 1 asked to finish the match" in kid.flashed()
    assert (
        river.game(3, "dashing-states", "a").status_code == 302
        and "Team 1 asked to finish the match" in river.flashed()
    )
    assert (
        river.undo(2).status_code == 302 and "Team 1 asked to finish the match" in river.flashed()
    )
    assert dump(app) == asked
    assert "Round 1" in text_of(
        teacher.page(tid)
    ) and "Team 1 (river) asks to finish the match at Team 1 1–1 Team 2" in text_of(
        teacher.page(tid)
    )
    assert "Standings after round 1" not in teacher.page(tid)

    # Team 2 confirms: the result is written, with who confirmed it.
    assert kid.answer_finish().status_code == 302
    assert "Match over: Team 1 1–1 Team 2: a tied match." in kid.flashed()
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.winner_id, row.entered_by) == (1, 1, None, "app")
    assert row.finish_confirmed_by_id == user_id(app, "kid01") and row.entered_at is not None
    assert "Standings after round 1" in teacher.page(tid)
    assert two


def test_the_other_team_says_not_yet_and_the_match_goes_on(world, teacher):
    """P-K6: the other team may refuse a finish; the match goes on and may be finished later."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    kid = river.other
    river.record("a")
    assert river.finish(1).status_code == 302
    assert kid.answer_finish("decline").status_code == 302
    assert "Not finished: the match goes on. Team 1 may ask again later." in kid.flashed()
    row = match_row(app, match.id)
    assert (row.entered_at, row.finish_asked_at, row.finish_asked_by_id) == (None, None, None)
    assert river.record("b") == (2, "state-iq")
    assert kid.finish(2).status_code == 302  # now Team 2 asks, and Team 1 confirms
    assert river.answer_finish().status_code == 302
    assert (match_row(app, match.id).a_games, match_row(app, match.id).b_games) == (1, 1)


def test_a_disputed_game_goes_back_to_its_team_or_to_the_teacher(world, teacher):
    """P-K6: the other team disputes a game; it blocks the match until the team that entered it takes
    it back (and records it again, at a new time) or the teacher confirms or corrects it (keeping its
    time). A dispute sent twice changes nothing."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id)
    kid = table_for(world, "kid01", tid, match.id)
    desk = table_for(world, "teacher", tid, match.id)
    river.record("a")
    assert kid.confirm("dispute").status_code == 302
    assert (
        "You disputed game 1, Border-Up (Team 1 won). Team 1 may take it back and record it again, or your teacher decides."
        in kid.flashed()
    )
    game = game_row(app, match.id, 1)
    entry = kid.pending()
    assert (game.disputed_by_id, game.confirmed_at) == (user_id(app, "kid01"), None)
    page = river.text()
    assert (
        "Disputed by kid01 (Team 2). Team 1 may take it back and record it again, or the teacher confirms or corrects it."
        in page
    )
    assert "waiting for your team’s answer" in text_of(
        river.client.get("/tournaments/").get_data(as_text=True)
    )
    disputed = dump(app)
    assert kid.confirm("dispute", expected=entry).status_code == 302
    assert "Game 1 is already disputed: your teacher decides. Nothing was changed." in kid.flashed()
    assert river.game(2, "state-iq", "a").status_code == 302
    assert (
        "Game 1 is disputed: Team 1 may take it back and record it again, or your teacher confirms or corrects it."
        in river.flashed()
    )
    assert kid.confirm("b", expected=entry).status_code == 302
    assert (
        "Only your teacher can change a result: confirm it, or dispute it. Nothing was changed."
        in kid.flashed()
    )
    assert desk.confirm("dispute", expected=entry).status_code == 302
    assert "As the teacher, confirm the result or correct it." in desk.flashed()
    assert dump(app) == disputed

    # Team 1 takes it back and records it again: a new entry, waiting again.
    assert river.undo(1).status_code == 302
    assert river.record("b") == (1, "border-up")
    again = game_row(app, match.id, 1)
    assert (
        again.disputed_at is None
        and again.confirmed_at is None
        and again.entered_at > game.entered_at
    )
    assert kid.confirm().status_code == 302 and game_row(
        app, match.id, 1
    ).confirmed_by_id == user_id(app, "kid01")

    # Game 2 disputed, then corrected by the teacher: it stands, at the time it was entered.
    river.record("a")
    kid.confirm("dispute")
    entered = game_row(app, match.id, 2)
    assert desk.confirm("b").status_code == 302
    assert (
        "Corrected game 2, State IQ (Team 1 won): Team 2 won. It stands, at the time it was entered."
        in desk.flashed()
    )
    corrected = game_row(app, match.id, 2)
    assert (
        corrected.winner_id == team_id(app, tid, 2) and corrected.entered_at == entered.entered_at
    )
    assert corrected.confirmed_by_id == world.teacher.id
    assert "Now: game 3, Dashing States" in river.text()


def test_the_teacher_confirms_or_corrects_on_the_round_page(world, teacher):
    """P-K6: the teacher's round page lists the matches waiting for confirmation, with the game or
    the finish that waits; the teacher confirms or corrects there and comes back to the page."""
    app = world.app
    tid = make_tournament(world, teacher, teams=4)
    first, second = matches(app, tid, 1)
    one = (
        table_for(world, "river", tid, first.id)
        if first.a_team_id == team_id(app, tid, 1)
        else None
    )
    assert one is not None, "team 1 (river) plays in the first match"
    control = text_of(teacher.page(tid))
    assert "wait for confirmation" not in control and "waits for confirmation" not in control
    one.record("tie")
    html = teacher.page(tid)
    control = text_of(html)
    assert "1 match scored in the app waits for confirmation" in control
    assert (
        "Waiting for confirmation: Game 1, Border-Up: a tie, entered by river (Team 1); waiting for"
        in control
    )
    assert "(1 game recorded, 1 waiting for confirmation)" in control
    expected = re.search(r'name="confirm-expected" type="hidden" value="([\d.]+)"', html).group(1)
    assert 'name="confirm-back" type="hidden" value="round"' in html
    desk = table_for(world, "teacher", tid, first.id)
    response = desk.confirm("a", expected=expected, back="round")
    assert response.location == f"/teach/tournaments/{tid}"
    assert "Corrected game 1, Border-Up (a tie): Team 1 won." in text_of(
        desk.client.get(response.location).get_data(as_text=True)
    )
    assert game_row(app, first.id, 1).winner_id == team_id(app, tid, 1)
    assert "waits for confirmation" not in text_of(teacher.page(tid))

    # A finish asked: the teacher confirms it from the round page.
    assert one.finish(1).status_code == 302
    html = teacher.page(tid)
    assert "Confirm: finish the match" in text_of(html)
    response = desk.answer_finish(expected=1, back="round")
    assert response.location == f"/teach/tournaments/{tid}"
    row = match_row(app, first.id)
    assert (row.a_games, row.b_games, row.entered_by, row.finish_confirmed_by_id) == (
        1,
        0,
        "app",
        world.teacher.id,
    )
    # The teacher's own games and finish stand at once, in the other match.
    desk2 = table_for(world, "teacher", tid, second.id)
    desk2.record("b")
    assert game_row(app, second.id, 1).confirmed_by_id == world.teacher.id
    assert desk2.finish(1).status_code == 302
    assert match_row(app, second.id).entered_by == "app"
    assert "waits for confirmation" not in text_of(teacher.page(tid))


def test_a_student_of_neither_team_cannot_confirm(world, teacher):
    """P-K6: the student of the team with the bye, and a student of another class, cannot confirm a
    game or a finish: not found, and nothing changes."""
    app = world.app
    tid = make_tournament(world, teacher, teams=3)
    paired = matches(app, tid, 1)
    match = next(m for m in paired if m.b_team_id is not None)
    bye = next(m for m in paired if m.b_team_id is None)
    member = {
        team_id(app, tid, 1): "river",
        team_id(app, tid, 2): "kid01",
        team_id(app, tid, 3): "kid03",
    }
    a, b, resting = member[match.a_team_id], member[match.b_team_id], member[bye.a_team_id]
    table_for(world, a, tid, match.id).record("a")
    entry = table_for(world, b, tid, match.id).pending()
    before = dump(app)
    for who in (resting, "otter"):
        outsider = table_for(world, who, tid, match.id)
        assert (
            outsider.post(
                "/confirm", "confirm", {"expected": entry, "answer": "confirm"}
            ).status_code
            == 404
        )
        assert (
            outsider.post(
                "/confirm", "confirm", {"expected": entry, "answer": "dispute"}
            ).status_code
            == 404
        )
        assert (
            outsider.post(
                "/finish/answer", "answer", {"expected": "1", "answer": "confirm"}
            ).status_code
            == 404
        )
    assert dump(app) == before
    table_for(world, b, tid, match.id).confirm()
    assert game_row(app, match.id, 1).confirmed_at is not None


def test_a_replayed_or_stale_confirmation_changes_nothing(world, teacher):
    """P-K6: a confirmation sent twice, a dispute after the confirmation, a confirmation of a game
    since taken back and recorded again, and a finish answered twice: each changes nothing."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id)
    kid = table_for(world, "kid01", tid, match.id)
    river.record("a")
    old = kid.pending()
    assert river.undo(1).status_code == 302
    river.record("b")
    before = dump(app)
    assert kid.confirm(expected=old).status_code == 302
    assert (
        "That game was taken back or changed since the page was shown. Nothing was changed."
        in kid.flashed()
    )
    assert dump(app) == before
    current = kid.pending()
    assert kid.confirm(expected=current).status_code == 302
    confirmed = dump(app)
    for answer in ("confirm", "dispute"):
        assert kid.confirm(answer, expected=current).status_code == 302
        assert "Game 1 was already confirmed. Nothing was changed." in kid.flashed()
    assert (
        table_for(world, "teacher", tid, match.id).confirm("a", expected=current).status_code == 302
    )
    assert dump(app) == confirmed
    assert river.finish(1).status_code == 302
    assert kid.answer_finish(expected=1).status_code == 302
    finished = dump(app)
    assert kid.answer_finish("confirm", expected=1).status_code == 302
    assert "This match's result is already in" in kid.flashed()
    assert kid.answer_finish("decline", expected=1).status_code == 302
    assert dump(app) == finished


def test_a_games_time_is_its_entry_not_its_confirmation(world, teacher):
    """P-K6, K2: a game entered before the bell counts though confirmed after it; one entered after
    the bell does not count though confirmed at once."""
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    assert teacher.clock(tid, 1).status_code == 302
    river = table_for(world, "river", tid, match.id)
    kid = table_for(world, "kid01", tid, match.id)
    river.record("a")  # at 0:00 of the round
    ring_the_bell(app, tid, match.id, 21)  # the round began 21 minutes ago, and game 1 then
    kid.confirm()  # after the bell
    game = game_row(app, match.id, 1)
    assert game.confirmed_at - game.entered_at > dt.timedelta(minutes=20)
    page = river.text()
    assert "Games won: Team 1 1, Team 2 0." in page and "No: after the bell" not in page
    river.record("b")  # after the bell, confirmed at once
    kid.confirm()
    page = river.text()
    assert (
        "Games won (counted): Team 1 1, Team 2 0; 1 recorded after the bell, not counted." in page
    )
    assert river.finish(2).status_code == 302 and kid.answer_finish().status_code == 302
    row = match_row(app, match.id)
    assert (row.a_games, row.b_games, row.winner_id) == (1, 0, team_id(app, tid, 1))


# --- Who may open a match ------------------------------------------------------------------------------


def test_only_the_two_teams_and_the_classs_teacher_open_the_match(world, teacher):
    """Another class's teacher, a student of no team, a student of the team with the bye, and a student
    taken out of the class: not found. Anonymous: sent to log in."""
    app = world.app
    tid = make_tournament(world, teacher, teams=3)
    paired = matches(app, tid, 1)
    match = next(m for m in paired if m.b_team_id is not None)
    bye = next(m for m in paired if m.b_team_id is None)
    numbers = {team_id(app, tid, n): n for n in (1, 2, 3)}
    member = {1: "river", 2: "kid01", 3: "kid03"}
    playing = [member[numbers[match.a_team_id]], member[numbers[match.b_team_id]]]
    resting = member[numbers[bye.a_team_id]]
    base = f"/tournaments/{tid}/matches/{match.id}"
    for who in playing:
        assert client_for(app, who).get(base).status_code == 200
    assert world.client("teacher").get(base).status_code == 200

    before = dump(app)
    posts = [
        ("/games", {"game-number": "1", "game-game": "border-up", "game-winner": "a"}),
        ("/finish", {"finish-expected": "0"}),
        ("/undo", {"undo-expected": "1"}),
        ("/draw", {}),
        ("/pick", {"pick-game": "border-up", "pick-expected": "0"}),
        ("/confirm", {"confirm-expected": "1", "confirm-answer": "confirm"}),
        ("/finish/answer", {"answer-expected": "0", "answer-answer": "confirm"}),
    ]
    for who in (resting, "otter", "heron", world.other_teacher.username):
        client = client_for(app, who)
        token = token_for(client)
        response = client.get(base)
        assert response.status_code == 404, who
        assert "Friday Cup" not in response.get_data(as_text=True)
        for path, data in posts:
            assert (
                client.post(base + path, data={**data, "csrf_token": token}).status_code == 404
            ), (who, path)
    anonymous = client_for(app, None)
    response = anonymous.get(base)
    assert response.status_code == 302 and response.location.startswith("/auth/login?next=")
    # The bye is no match to score; a made-up match, or one of another tournament, is not found.
    river = client_for(app, "river")
    assert river.get(f"/tournaments/{tid}/matches/{bye.id}").status_code == 404
    assert river.get(f"/tournaments/{tid}/matches/99999").status_code == 404
    assert river.get(f"/tournaments/{tid + 1}/matches/{match.id}").status_code == 404
    assert dump(app) == before

    # The bye team's student sees their own list (with the bye), and nothing of the match's teams.
    page = text_of(client_for(app, resting).get("/tournaments/").get_data(as_text=True))
    assert "A bye (counts as a win)" in page and "Open the match" not in page
    # Taken out of the class, a team's student no longer sees the class's tournament.
    gone = playing[0]
    with app.app_context():
        uid = db.session.execute(select(User.id).where(User.username == gone)).scalar_one()
        db.session.execute(delete(ClassMembership).where(ClassMembership.student_id == uid))
        db.session.commit()
    client = client_for(app, gone)
    assert client.get(base).status_code == 404
    assert "Friday Cup" not in client.get("/tournaments/").get_data(as_text=True)


def test_a_match_of_another_tournament_is_not_found(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    second = teacher.new(world.class_a, name="Second cup")
    teacher.advance(second, 0)
    theirs = the_match(app, second, 1)
    ours = the_match(app, tid, 1)
    before = dump(app)
    for who in ("river", "teacher"):
        table = table_for(world, who, tid, theirs.id)
        assert table.client.get(table.url).status_code == 404
        assert table.game(1, "border-up", "a").status_code == 404
        assert table.finish(0).status_code == 404
        assert table.client.get(f"/tournaments/{second}/matches/{ours.id}").status_code == 404
    assert dump(app) == before


def test_the_students_list_shows_only_their_teams_matches(world, teacher):
    app = world.app
    river = client_for(app, "river")
    assert "You are not on a team in a class tournament" in river.get("/tournaments/").get_data(
        as_text=True
    )
    assert "Your class tournament" not in river.get("/play/combo/").get_data(as_text=True)
    tid = make_tournament(world, teacher, teams=3)
    html = river.get("/tournaments/").get_data(as_text=True)
    assert_strict_page(html)
    page = text_of(html)
    assert "Friday Cup" in page and "Your team: Team 1 (kid00, river)" in page
    assert "kid01" not in page and "kid03" not in page, "other teams' members are not listed"
    # A teacher has no such list; the other class's student has no tournament.
    assert world.client("teacher").get("/tournaments/").status_code == 403
    assert "Friday Cup" not in world.client("other_student").get("/tournaments/").get_data(
        as_text=True
    )
    assert tid


# --- The tables -----------------------------------------------------------------------------------------


def test_match_games_are_numbered_per_match_and_playoffs_stay_unique(world, teacher):
    """Two matches each have a game 1; a playoff or championship number is still taken once (K4)."""
    app = world.app
    tid = make_tournament(world, teacher, teams=4)
    first, second = matches(app, tid, 1)
    for m in (first, second):
        table_for(world, "teacher", tid, m.id).record("a")
    with app.app_context():
        assert db.session.execute(
            select(TournamentGame.number).where(TournamentGame.tournament_id == tid)
        ).scalars().all() == [1, 1]
        board = Board(db.session.get(Tournament, tid))
        assert (
            board.playoff_games == [] and board.championship_games == [] and board.undoable is None
        )
        assert sorted(len(g) for g in board.match_games.values()) == [1, 1]
        row = {
            "tournament_id": tid,
            "game": "border-up",
            "a_team_id": first.a_team_id,
            "b_team_id": first.b_team_id,
            "winner_id": None,
        }
        db.session.add(TournamentGame(stage="playoff", number=1, **row))
        db.session.commit()
        db.session.add(TournamentGame(stage="playoff", number=1, **row))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
        db.session.add(TournamentGame(stage="match", match_id=first.id, number=1, **row))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_the_match_pages_hold_under_the_strict_csp(world, teacher):
    app = world.app
    tid = make_tournament(world, teacher)
    match = the_match(app, tid, 1)
    river = table_for(world, "river", tid, match.id, other="kid01")
    river.record("a")
    for html in (
        river.page(),
        teacher.page(tid),
        river.client.get("/tournaments/").get_data(as_text=True),
    ):
        assert_strict_page(html)
        assert "<caption" in html and 'scope="col"' in html
