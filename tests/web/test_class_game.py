"""GeoPlunge Live on the devices (issue 23, rulings C-W1 to C-W11 of docs/RULINGS.md): a teacher
makes a game for a class, its students join with the code, answer each question on their own
device, and the teacher's projector runs the game to its report.

The class is the ``school`` fixture's: teacher ms.t's class 5B of ana, ben and cai; dee is in mr.o's
class 6C. Games are dealt from known seeds (``seeded``), so every run plays the same questions.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from tests.conftest import client_for, csrf_token
from tests.web.migrations import databases, empty_database
from trainer import class_game as cg
from trainer.web import get_deck
from trainer.web.class_game import game as games
from trainer.web.extensions import db
from trainer.web.models import (
    Assignment,
    ClassGame,
    ClassGameAnswer,
    ClassGamePlayer,
    ClassMembership,
    ReviewLog,
    SchoolClass,
    User,
    utcnow,
)

ALL_KINDS = [k.value for k in cg.Kind]


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = iter(range(2301, 2400))
    monkeypatch.setattr(games, "new_seed", lambda: next(seeds))


@pytest.fixture
def teacher(app: Flask, school) -> FlaskClient:
    return client_for(app, "ms.t")


pytestmark = pytest.mark.usefixtures("seeded")


# --- helpers ----------------------------------------------------------------------------------


def class_id(app: Flask, name: str = "5B") -> int:
    with app.app_context():
        return db.session.execute(
            select(SchoolClass.id).where(SchoolClass.name == name)
        ).scalar_one()


def user_id(app: Flask, name: str) -> int:
    with app.app_context():
        return db.session.execute(select(User.id).where(User.username == name)).scalar_one()


def make_game(client: FlaskClient, klass: int, **fields: Any) -> int:
    url = f"/class-game/classes/{klass}/new"
    data: dict[str, Any] = {
        "csrf_token": csrf_token(client, url),
        "covers": "forget",
        "kinds": ALL_KINDS,
        "length": "6",
        "seconds": "",
        "speed_breaks_ties": "y",
        "standings": "top-five",
        "team_size": "1",
    }
    data.update(fields)
    response = client.post(url, data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    match = re.search(r"/class-game/(\d+)/projector", response.location)
    assert match, response.location
    return int(match.group(1))


def game_row(app: Flask, game_id: int) -> ClassGame:
    with app.app_context():
        row = db.session.get(ClassGame, game_id)
        assert row is not None
        db.session.expunge(row)
        return row


def question(app: Flask, game_id: int, number: int) -> cg.Question:
    return games.question_from_json(game_row(app, game_id).questions[number])


def join(client: FlaskClient, code: str):
    return client.post(
        "/class-game/join", data={"csrf_token": csrf_token(client, "/class-game/"), "code": code}
    )


def control(teacher: FlaskClient, game_id: int, action: str, version: int | None = None):
    app = teacher.application
    if version is None:
        version = game_row(app, game_id).version
    return teacher.post(
        f"/class-game/{game_id}/control",
        data={
            "csrf_token": csrf_token(teacher, f"/class-game/{game_id}/projector"),
            "action": action,
            "version": str(version),
        },
    )


def answer(
    student: FlaskClient, game_id: int, number: int, given: str, cards: list[str] | None = None
):
    """Send ``given`` to question ``number``; a FIND question's state (a postal code) is tapped
    on the question's own map, so what is sent is that state's spot (C-W13)."""
    given = spot_for(student.application, game_id, number, given)
    data: dict[str, Any] = {
        "csrf_token": csrf_token(student, f"/class-game/{game_id}"),
        "question": str(number),
    }
    if cards:
        data["cards"] = cards
    else:
        data["answer"] = given
    return student.post(f"/class-game/{game_id}/answer", data=data)


def spot_for(app: Flask, game_id: int, number: int, given: str) -> str:
    """``given`` as the page sends it: for a FIND question's state, its spot on the question's map."""
    with app.app_context():
        row = db.session.get(ClassGame, game_id)
        if row is None or not 0 <= number < len(row.questions):
            return given
        q = games.question_from_json(row.questions[number])
        if q.kind is not cg.Kind.FIND or given not in q.options:
            return given
        return str(games.find_map(row, number, get_deck()).spot_of(given))


def right_answer(q: cg.Question) -> tuple[str, list[str] | None]:
    if q.kind is cg.Kind.BORDER_UP:
        return "", q.answer.split("+")
    return q.answer, None


def wrong_answer(q: cg.Question) -> tuple[str, list[str] | None]:
    if q.kind is cg.Kind.BORDER_UP:
        trio = set(q.answer.split("+"))
        others = [p for p in q.options if p not in trio]
        return "", [*sorted(trio)[:2], others[0]]
    return next(o for o in q.options if o != q.answer), None


def snapshot(app: Flask, game_id: int) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    with app.app_context():
        row = db.session.get(ClassGame, game_id)
        assert row is not None
        return (
            (row.version, row.state_version, row.phase, row.question, row.paused, row.clues_shown),
            db.session.execute(select(func.count()).select_from(ClassGameAnswer)).scalar_one(),
            db.session.execute(select(func.count()).select_from(ReviewLog)).scalar_one(),
            db.session.execute(select(func.count()).select_from(ClassGamePlayer)).scalar_one(),
        )


def opened_ago(app: Flask, game_id: int, seconds: float) -> None:
    """As if the open question had opened ``seconds`` ago (the clients' own clocks stay as they are)."""
    with app.app_context():
        row = db.session.get(ClassGame, game_id)
        assert row is not None and row.phase_at is not None
        row.phase_at = utcnow() - dt.timedelta(seconds=seconds)
        db.session.commit()


def live_reviews(app: Flask, game_id: int) -> list[tuple[int, str, str, str]]:
    with app.app_context():
        return [
            tuple(row)
            for row in db.session.execute(
                select(ReviewLog.student_id, ReviewLog.item, ReviewLog.verdict, ReviewLog.mode)
                .where(ReviewLog.round_token.like(f"class-game:{game_id}:%"))
                .order_by(ReviewLog.id)
            )
        ]


def started_game(
    app: Flask, teacher: FlaskClient, players: dict[str, FlaskClient], **fields: Any
) -> int:
    game_id = make_game(teacher, class_id(app), **fields)
    code = game_row(app, game_id).code
    for name in ("ana", "ben", "cai"):
        assert join(players[name], code).status_code == 302
    assert control(teacher, game_id, "start").status_code == 302
    assert game_row(app, game_id).phase == "question"
    return game_id


# --- making a game and the lobby ----------------------------------------------------------------


def test_the_class_page_offers_a_live_game_and_the_form_makes_one(app, school, teacher):
    """C-W1: the game is dealt once and stored; the projector shows the code, a QR code and the lobby."""
    klass = class_id(app)
    page = teacher.get(f"/teach/classes/{klass}").get_data(as_text=True)
    assert "Start a live game" in page and f"/class-game/classes/{klass}/new" in page
    form = teacher.get(f"/class-game/classes/{klass}/new")
    assert (
        form.status_code == 200
        and "what my class is about to forget" in form.get_data(as_text=True).lower()
    )
    game_id = make_game(teacher, klass, length="4")
    row = game_row(app, game_id)
    assert row.phase == "lobby" and row.question == -1 and len(row.questions) == 4
    assert re.fullmatch(r"[A-Z2-9]{6}", row.code)
    projector = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
    assert row.code in projector
    assert "<svg" in projector and "cg-qr" in projector  # the QR code, inline
    assert "Nobody yet" in projector
    # The QR code is segno's of the join link with the code filled in.
    from trainer.web.class_game.routes import qr_svg

    assert str(qr_svg(f"http://localhost/class-game/?code={row.code}")) in projector
    joining = client_for(app, "ana").get(f"/class-game/?code={row.code}").get_data(as_text=True)
    assert f'value="{row.code}"' in joining


def test_a_refused_form_says_why_and_makes_nothing(app, school, teacher):
    klass = class_id(app)
    url = f"/class-game/classes/{klass}/new"
    response = teacher.post(
        url,
        data={
            "csrf_token": csrf_token(teacher, url),
            "covers": "forget",
            "length": "99",
            "seconds": "",
            "standings": "teams",
            "team_size": "1",
        },
    )
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "Tick at least one kind of question." in text and "need teams" in text
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(ClassGame)).scalar_one() == 0


def test_what_the_class_is_about_to_forget_comes_first(app, school):
    """C-W1: the focus is the facts the class started, lowest mean predicted recall first."""
    from trainer.web.models import MemoryCard, utcnow

    now = utcnow()
    ana, ben = user_id(app, "ana"), user_id(app, "ben")
    with app.app_context():
        day = now.date()
        for sid, key, stability in (
            (ana, "OH:capital", 50.0),
            (ben, "OH:capital", 50.0),
            (ana, "TX:map", 0.5),
            (ben, "VT:size", 5.0),
        ):
            postal, facet = key.split(":")
            db.session.add(
                MemoryCard(
                    student_id=sid,
                    fact_key=key,
                    facet=facet,
                    state=2,
                    step=None,
                    stability=stability,
                    difficulty=5.0,
                    due=now,
                    last_review=now - dt.timedelta(days=20),
                    last_study_day=day - dt.timedelta(days=20),
                    lapses=0,
                    reps=1,
                    introduced_at=now - dt.timedelta(days=30),
                )
            )
        db.session.commit()
        from trainer.web import get_deck

        focus = games.class_focus([ana, ben, user_id(app, "cai")], now, get_deck())
    assert focus == ["TX:map", "VT:size", "OH:capital"]


# --- joining --------------------------------------------------------------------------------------


def test_only_students_of_the_class_join_and_others_hear_an_unknown_code(
    app, school, teacher, players
):
    """C-W2: dee (another class) and a made-up code get the same message; ana joins and is back on a second try."""
    game_id = make_game(teacher, class_id(app))
    code = game_row(app, game_id).code
    before = snapshot(app, game_id)
    stranger = join(players["dee"], code)
    made_up = join(players["dee"], "ZZZZZZ")
    assert stranger.status_code == made_up.status_code == 400
    assert games.NO_SUCH_GAME in stranger.get_data(as_text=True)
    assert games.NO_SUCH_GAME in made_up.get_data(as_text=True)
    assert snapshot(app, game_id) == before
    first = join(players["ana"], code.lower())
    assert first.status_code == 302 and first.location.endswith(f"/class-game/{game_id}")
    again = join(players["ana"], code)
    assert again.status_code == 302
    with app.app_context():
        assert (
            db.session.execute(select(func.count()).select_from(ClassGamePlayer)).scalar_one() == 1
        )
    assert "ana" in teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
    page = players["ana"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert "Waiting for your teacher to start" in page


# --- a whole game ---------------------------------------------------------------------------------


def test_a_teacher_and_three_students_play_a_whole_game(app, school, teacher, players):
    """C-W3, C-W4, C-W8: every kind once; ana answers right, ben wrong, cai never; the reveal
    shows the distribution; each answer leaves its reviews once, mode "live"."""
    game_id = started_game(app, teacher, players)
    total = len(game_row(app, game_id).questions)
    ana, ben = user_id(app, "ana"), user_id(app, "ben")
    expected_reviews = 0
    for number in range(total):
        q = question(app, game_id, number)
        assert game_row(app, game_id).question == number
        given, cards = right_answer(q)
        assert answer(players["ana"], game_id, number, given, cards).status_code == 302
        given, cards = wrong_answer(q)
        assert answer(players["ben"], game_id, number, given, cards).status_code == 302
        expected_reviews += 2 * len(set(q.facts))
        projector = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
        assert "<strong>2</strong> of 3 answered" in projector
        assert control(teacher, game_id, "reveal").status_code == 302
        projector = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
        assert "1 of you chose" in projector
        mine = players["ana"].get(f"/class-game/{game_id}").get_data(as_text=True)
        assert "Right!" in mine
        assert "Not this time" in players["ben"].get(f"/class-game/{game_id}").get_data(
            as_text=True
        )
        assert "You did not answer this one." in players["cai"].get(
            f"/class-game/{game_id}"
        ).get_data(as_text=True)
        assert control(teacher, game_id, "standings").status_code == 302
        standings = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
        assert "Standings after question" in standings
        last = number == total - 1
        response = control(teacher, game_id, "next")
        assert response.status_code == 302
    row = game_row(app, game_id)
    assert row.phase == "ended" and row.ended_at is not None
    reviews = live_reviews(app, game_id)
    assert len(reviews) == expected_reviews and last
    with app.app_context():
        tokens = set(
            db.session.execute(
                select(ReviewLog.student_id, ReviewLog.round_token).where(
                    ReviewLog.round_token.like(f"class-game:{game_id}:%")
                )
            ).all()
        )
    assert tokens == {(sid, f"class-game:{game_id}:{sid}") for sid in (ana, ben)}
    assert {mode for *_rest, mode in reviews} == {"live"}
    assert len({(sid, item) for sid, item, _v, _m in reviews}) == len(reviews)  # each once
    assert {v for sid, _i, v, _m in reviews if sid == ana} == {"right"}
    assert {v for sid, _i, v, _m in reviews if sid == ben} == {"wrong"}
    with app.app_context():
        points = dict(
            db.session.execute(
                select(ClassGameAnswer.student_id, func.sum(ClassGameAnswer.points)).group_by(
                    ClassGameAnswer.student_id
                )
            ).all()
        )
    assert points[ana] > 0 and points[ben] == 0
    final = players["ana"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert "The game is over" in final and "number 1 of 3" in final
    report = teacher.get(f"/class-game/{game_id}/report").get_data(as_text=True)
    assert "What the class missed" in report and "ana" in report and "cai" in report
    csv = teacher.get(f"/class-game/{game_id}/report.csv")
    assert csv.mimetype == "text/csv"
    lines = csv.get_data(as_text=True).strip().splitlines()
    assert len(lines) == 1 + 3 * total


def test_the_projector_never_lists_names_beside_low_scores(app, school, teacher, players):
    """C-W8: the top five only; with teams, "Team n"; with no standings, none. C-W7: teams are
    made at the start."""
    game_id = started_game(app, teacher, players, standings="none", length="2")
    control(teacher, game_id, "reveal")
    control(teacher, game_id, "standings")  # no standings: straight on to the next question
    assert game_row(app, game_id).question == 1
    control(teacher, game_id, "end")
    ended = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
    assert "cg-standings__name" not in ended
    teams = started_game(app, teacher, players, standings="teams", team_size="2", length="1")
    with app.app_context():
        numbers = sorted(
            t
            for (t,) in db.session.execute(
                select(ClassGamePlayer.team).where(ClassGamePlayer.game_id == teams)
            )
        )
    assert numbers == [1, 1, 1]  # three students: one team of 3 (none below 2)
    control(teacher, teams, "reveal")
    control(teacher, teams, "standings")
    page = teacher.get(f"/class-game/{teams}/projector").get_data(as_text=True)
    assert "Team 1" in page and "ana" not in page.split("cg-standings")[1]


def test_a_student_who_joins_late_plays_in_the_smallest_team(app, school, teacher, players):
    """C-W7."""
    game_id = make_game(teacher, class_id(app), standings="teams", team_size="2", length="2")
    code = game_row(app, game_id).code
    join(players["ana"], code)
    join(players["ben"], code)
    control(teacher, game_id, "start")
    assert join(players["cai"], code).status_code == 302
    with app.app_context():
        teams = dict(
            db.session.execute(
                select(ClassGamePlayer.student_id, ClassGamePlayer.team).where(
                    ClassGamePlayer.game_id == game_id
                )
            ).all()
        )
    assert teams == {user_id(app, "ana"): 1, user_id(app, "ben"): 1, user_id(app, "cai"): 1}
    page = players["cai"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert "Question 1 of 2" in page and "Team 1" in page


# --- secrets ------------------------------------------------------------------------------------


def _normal(html: str) -> str:
    html = re.sub(r'name="csrf_token" value="[^"]+"', 'name="csrf_token" value=""', html)
    html = re.sub(r'data-cg-csrf="[^"]+"', "", html)
    html = re.sub(r'data-cg-now="\d+"', "", html)
    html = re.sub(r'data-cg-left="\d+"', "", html)
    return re.sub(r"<span data-cg-timer>\d+</span>", "", html)


def test_no_secret_reaches_a_student_before_the_reveal(app, school, teacher, players):
    """C-W5: while a question is open, a student's page (whole or its live part) and the version
    endpoint are the same whatever the question's answer, facts and red state are: nothing of them
    is sent. After the reveal the answer is shown."""
    game_id = make_game(teacher, class_id(app), seconds="30")
    code = game_row(app, game_id).code
    for name in ("ana", "ben", "cai"):
        assert join(players[name], code).status_code == 302
    listener = app.extensions["socketio"].test_client(app, flask_test_client=players["ana"])
    assert listener.emit("watch_class_game", {"game": game_id}, callback=True)["ok"]
    assert control(teacher, game_id, "start").status_code == 302
    total = len(game_row(app, game_id).questions)
    for number in range(total):
        q = question(app, game_id, number)
        urls = [
            f"/class-game/{game_id}",
            f"/class-game/{game_id}?part=live",
            f"/class-game/{game_id}/version",
        ]
        seen = [_normal(players["ana"].get(url).get_data(as_text=True)) for url in urls]
        for text in seen:
            for key in q.facts:
                assert key not in text
        # C-W9: the notice that opened the question brought the page's own part of it, no more.
        pushed = [
            m["args"][0]["question"]
            for m in listener.get_received()
            if m["name"] == "class_game_changed" and "question" in m["args"][0]
        ]
        assert [p["number"] for p in pushed] == [number]
        assert 'name="csrf_token" value=""' in pushed[0]["html"]
        assert _normal(pushed[0]["html"]) in seen[1]
        assert 29_000 < pushed[0]["left"] <= 30_000  # the clock, from the question's opening
        # Another answer, other facts, another red state: the pages do not change.
        with app.app_context():
            row = db.session.get(ClassGame, game_id)
            assert row is not None
            changed = [dict(d) for d in row.questions]
            decoy = wrong_answer(q)
            changed[number]["answer"] = "+".join(sorted(decoy[1])) if decoy[1] else decoy[0]
            changed[number]["facts"] = ["ZZ:map"]
            changed[number]["map_postal"] = "WY" if q.map_postal != "WY" else "ME"
            kept = row.questions
            row.questions = changed
            db.session.commit()
        again = [_normal(players["ana"].get(url).get_data(as_text=True)) for url in urls]
        assert again == seen, f"question {number + 1} ({q.kind.value}) shows a secret"
        with app.app_context():
            row = db.session.get(ClassGame, game_id)
            assert row is not None
            row.questions = kept
            db.session.commit()
        control(teacher, game_id, "reveal")
        revealed = players["ana"].get(f"/class-game/{game_id}").get_data(as_text=True)
        assert "The answer:" in revealed
        control(teacher, game_id, "next")
    # The red state is drawn on the projector only.
    assert game_row(app, game_id).phase == "ended"


def test_a_clue_chain_shows_its_clues_one_by_one_and_fewer_clues_score_more(
    app, school, teacher, players
):
    """C-W5: a clue not yet on show is in no student's page; C-W4: the points are judged on the
    clues on show when the answer came."""
    game_id = started_game(app, teacher, players, length="1", kinds=["clues"])
    q = question(app, game_id, 0)
    assert len(q.clues) >= 2
    page = players["ana"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert _escaped(q.clues[0]) in page
    assert not any(_escaped(clue) in page for clue in q.clues[1:])
    answer(players["ana"], game_id, 0, q.answer)
    control(teacher, game_id, "clue")
    page = players["ben"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert _escaped(q.clues[1]) in page
    assert not any(_escaped(clue) in page for clue in q.clues[2:])
    answer(players["ben"], game_id, 0, q.answer)
    with app.app_context():
        points = dict(
            db.session.execute(select(ClassGameAnswer.student_id, ClassGameAnswer.points)).all()
        )
        seen = dict(
            db.session.execute(select(ClassGameAnswer.student_id, ClassGameAnswer.clues_seen)).all()
        )
    ana, ben = user_id(app, "ana"), user_id(app, "ben")
    assert seen == {ana: 1, ben: 2}
    assert points[ana] == cg.POINTS > points[ben] == cg.clue_points(len(q.clues), 2)


def _escaped(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


# --- refusals -------------------------------------------------------------------------------------


def test_every_refused_answer_changes_nothing(app, school, teacher, players):
    """C-W6: late (after the reveal, after the time), twice, paused, a bad option, not joined,
    another class, an unknown game: each is refused with its message and nothing changes."""
    game_id = make_game(teacher, class_id(app), seconds="10", length="3", kinds=["capital"])
    code = game_row(app, game_id).code
    for name in ("ana", "ben"):
        join(players[name], code)
    control(teacher, game_id, "start")
    q = question(app, game_id, 0)
    ana = players["ana"]

    def refused(response, message: str) -> None:
        assert response.status_code == 302
        page = ana.get(response.location).get_data(as_text=True)
        assert message.replace("'", "&#39;") in page

    before = snapshot(app, game_id)
    refused(answer(ana, game_id, 0, "Atlantis"), games.NOT_AN_OPTION)
    assert snapshot(app, game_id) == before
    refused(answer(ana, game_id, 1, q.answer), games.CLOSED)  # not the open question
    assert snapshot(app, game_id) == before
    control(teacher, game_id, "pause")
    before = snapshot(app, game_id)
    refused(answer(ana, game_id, 0, q.answer), games.PAUSED)
    assert snapshot(app, game_id) == before
    control(teacher, game_id, "resume")
    assert answer(ana, game_id, 0, q.answer).status_code == 302
    before = snapshot(app, game_id)
    refused(answer(ana, game_id, 0, wrong_answer(q)[0]), games.TWICE)
    assert snapshot(app, game_id) == before
    # cai did not join; dee is in another class; 999 is no game: not found, nothing changes.
    assert answer(players["cai"], game_id, 0, q.answer).status_code == 404
    assert players["dee"].post(
        f"/class-game/{game_id}/answer", data={"question": "0", "answer": q.answer}
    ).status_code in (400, 404)
    assert players["cai"].get(f"/class-game/{game_id}").status_code == 404
    assert players["dee"].get(f"/class-game/{game_id}").status_code == 404
    assert ana.get("/class-game/999999").status_code == 404
    assert snapshot(app, game_id) == before
    # Time up: ben answers 40 s after the question opened (10 s and the grace are long gone).
    opened_ago(app, game_id, 40)
    before = snapshot(app, game_id)
    response = answer(players["ben"], game_id, 0, q.answer)
    assert response.status_code == 302
    assert snapshot(app, game_id) == before
    assert "Time was up" in players["ben"].get(response.location).get_data(as_text=True)
    # After the reveal: closed.
    control(teacher, game_id, "reveal")
    before = snapshot(app, game_id)
    response = answer(players["ben"], game_id, 0, q.answer)
    assert snapshot(app, game_id) == before
    assert "That question is closed" in players["ben"].get(response.location).get_data(as_text=True)


def test_extra_time_lets_a_marked_student_answer_later(app, school, teacher, players):
    """C-W6: a student marked for extra time has half as long again."""
    ben = user_id(app, "ben")
    game_id = make_game(
        teacher, class_id(app), seconds="10", length="1", kinds=["capital"], extra_time=[str(ben)]
    )
    code = game_row(app, game_id).code
    join(players["ana"], code)
    join(players["ben"], code)
    control(teacher, game_id, "start")
    q = question(app, game_id, 0)
    # C-W9: each page knows its own extra time, to add to the clock a notice brings.
    for name, extra in (("ana", 0), ("ben", 5000)):
        page = players[name].get(f"/class-game/{game_id}").get_data(as_text=True)
        assert f'data-cg-extra="{extra}"' in page
    opened_ago(app, game_id, 13)
    answer(players["ana"], game_id, 0, q.answer)
    answer(players["ben"], game_id, 0, q.answer)
    with app.app_context():
        who = set(db.session.execute(select(ClassGameAnswer.student_id)).scalars())
    assert who == {ben}


def test_two_controls_pressed_on_one_page_move_the_game_once(app, school, teacher, players):
    """C-W3: the second press of the same version is refused; an answer in between does not make
    the projector's buttons stale."""
    game_id = started_game(app, teacher, players, length="3")
    version = game_row(app, game_id).version
    q = question(app, game_id, 0)
    given, cards = right_answer(q)
    answer(players["ana"], game_id, 0, given, cards)  # the version moves on; the state does not
    assert control(teacher, game_id, "reveal", version=version).status_code == 302
    assert game_row(app, game_id).phase == "reveal"
    before = snapshot(app, game_id)
    response = control(teacher, game_id, "next", version=version)
    assert snapshot(app, game_id) == before
    assert "moved on meanwhile" in teacher.get(response.location).get_data(as_text=True)
    # An action the phase does not allow: the core's words, nothing changed.
    response = control(teacher, game_id, "pause")
    assert snapshot(app, game_id) == before
    # A forged action or version: refused.
    assert control(teacher, game_id, "explode").status_code == 302
    assert control(teacher, game_id, "next", version=10**6).status_code == 302
    assert snapshot(app, game_id) == before


def test_a_skipped_question_scores_nothing_but_its_answers_stay_reviews(
    app, school, teacher, players
):
    """C-W12."""
    game_id = started_game(app, teacher, players, length="2", kinds=["capital"])
    q = question(app, game_id, 0)
    answer(players["ana"], game_id, 0, q.answer)
    answer(players["ben"], game_id, 0, wrong_answer(q)[0])
    assert control(teacher, game_id, "skip").status_code == 302
    row = game_row(app, game_id)
    assert row.question == 1 and row.settings["skipped"] == [0]
    with app.app_context():
        assert set(db.session.execute(select(ClassGameAnswer.points)).scalars()) == {0}
    assert len(live_reviews(app, game_id)) == 2  # the answers were real: their reviews stay
    page = players["ana"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert "<strong>0</strong> points" in page
    control(teacher, game_id, "end")
    report = teacher.get(f"/class-game/{game_id}/report").get_data(as_text=True)
    assert "skipped: no points" in report
    assert "Set an assignment on these facts" not in report  # nothing is known of a skipped one


def _at_once(*calls: Any) -> list[Any]:
    import threading

    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def test_two_controls_at_the_same_moment_keep_exactly_one(app, school, teacher, players):
    """C-W3: "Pause" and "Reveal" pressed at once on the same page (two of the teacher's tabs)."""
    game_id = started_game(app, teacher, players, length="2", kinds=["capital"])
    other_tab = client_for(app, "ms.t")
    version = game_row(app, game_id).version
    forms = [
        {
            "csrf_token": csrf_token(c, f"/class-game/{game_id}/projector"),
            "action": a,
            "version": str(version),
        }
        for c, a in ((teacher, "pause"), (other_tab, "reveal"))
    ]
    statuses = _at_once(
        lambda: teacher.post(f"/class-game/{game_id}/control", data=forms[0]).status_code,
        lambda: other_tab.post(f"/class-game/{game_id}/control", data=forms[1]).status_code,
    )
    assert statuses == [302, 302]
    row = game_row(app, game_id)
    assert row.version == row.state_version == version + 1
    assert (row.phase, row.paused) in {("question", True), ("reveal", False)}


def test_an_answer_and_the_reveal_at_once_keep_the_answer_whole_or_not_at_all(
    app, school, teacher, players
):
    """C-W4: whichever comes first, the answer is kept with its reviews, or refused with none."""
    game_id = started_game(app, teacher, players, length="2", kinds=["capital"])
    q = question(app, game_id, 0)
    version = game_row(app, game_id).version
    reveal = {
        "csrf_token": csrf_token(teacher, f"/class-game/{game_id}/projector"),
        "action": "reveal",
        "version": str(version),
    }
    given = {
        "csrf_token": csrf_token(players["ana"], f"/class-game/{game_id}"),
        "question": "0",
        "answer": q.answer,
    }
    _at_once(
        lambda: teacher.post(f"/class-game/{game_id}/control", data=reveal),
        lambda: players["ana"].post(f"/class-game/{game_id}/answer", data=given),
    )
    assert game_row(app, game_id).phase == "reveal"
    with app.app_context():
        answers = db.session.execute(select(func.count()).select_from(ClassGameAnswer)).scalar_one()
    assert len(live_reviews(app, game_id)) == answers * len(q.facts)


# --- resume, access -----------------------------------------------------------------------------


def test_a_refresh_puts_a_student_back_where_the_game_is(app, school, teacher, players):
    """C-W10."""
    game_id = started_game(app, teacher, players, length="3")
    control(teacher, game_id, "skip")
    q = question(app, game_id, 1)
    page = players["cai"].get(f"/class-game/{game_id}").get_data(as_text=True)
    assert "Question 2 of 3" in page and q.prompt.replace("'", "&#39;") in page
    given, cards = right_answer(q)
    answer(players["cai"], game_id, 1, given, cards)
    again = client_for(app, "cai").get(f"/class-game/{game_id}").get_data(as_text=True)
    assert "Your answer is in" in again
    # Joining again with the code (a new phone) leads back to the game, not to the lobby.
    code = game_row(app, game_id).code
    assert join(players["cai"], code).location.endswith(f"/class-game/{game_id}")


def test_every_page_holds_under_the_strict_csp(app, school, teacher, players):
    """No inline script or style on any page of the game (the QR code is inline SVG, no style)."""
    from tests.web.test_security import assert_strict_page

    klass = class_id(app)
    game_id = make_game(teacher, klass, length="2", kinds=["red-state", "find"])
    join(players["ana"], game_row(app, game_id).code)
    pages = [
        teacher.get(f"/class-game/classes/{klass}/new"),
        teacher.get(f"/class-game/{game_id}/projector"),
        players["ana"].get("/class-game/"),
        players["ana"].get(f"/class-game/{game_id}"),
    ]
    control(teacher, game_id, "start")
    pages += [
        teacher.get(f"/class-game/{game_id}/projector"),
        players["ana"].get(f"/class-game/{game_id}"),
    ]
    control(teacher, game_id, "reveal")
    pages += [
        teacher.get(f"/class-game/{game_id}/projector"),
        players["ana"].get(f"/class-game/{game_id}"),
    ]
    control(teacher, game_id, "end")
    pages += [
        teacher.get(f"/class-game/{game_id}/report"),
        players["ana"].get(f"/class-game/{game_id}"),
    ]
    for response in pages:
        assert response.status_code == 200
        assert_strict_page(response.get_data(as_text=True))


def test_only_the_games_teacher_runs_it(app, school, teacher, players):
    """C-W2: another teacher finds nothing; a student is not let onto the projector; signed out: log in."""
    game_id = make_game(teacher, class_id(app))
    other = client_for(app, "mr.o")
    for url in (
        f"/class-game/{game_id}/projector",
        f"/class-game/{game_id}/report",
        f"/class-game/{game_id}/report.csv",
        f"/class-game/{game_id}/version",
    ):
        assert other.get(url).status_code == 404, url
        assert players["ana"].get(url).status_code in (403, 404), url
        assert app.test_client().get(url).status_code == 302, url
    before = snapshot(app, game_id)
    response = other.post(
        f"/class-game/{game_id}/control",
        data={"csrf_token": csrf_token(other, "/teach/"), "action": "start", "version": "0"},
    )
    assert response.status_code == 404
    assert snapshot(app, game_id) == before
    assert other.get(f"/class-game/classes/{class_id(app)}/new").status_code == 404
    assert players["ana"].get("/class-game/").status_code == 200
    assert teacher.get("/class-game/").status_code == 403


# --- real time ----------------------------------------------------------------------------------


def test_notices_carry_the_game_and_a_version_only(app, school, teacher, players):
    """C-W9: the projector hears every change, a student's page only the controls, and a question
    just opened comes with its part of the page; strangers are refused."""
    game_id = make_game(teacher, class_id(app), length="2")
    code = game_row(app, game_id).code
    join(players["ana"], code)
    socketio = app.extensions["socketio"]
    projector = socketio.test_client(app, flask_test_client=teacher)
    student = socketio.test_client(app, flask_test_client=players["ana"])
    assert projector.emit("watch_class_game", {"game": game_id}, callback=True) == {
        "ok": True,
        "version": game_row(app, game_id).version,
    }
    assert student.emit("watch_class_game", {"game": game_id}, callback=True) == {
        "ok": True,
        "version": 0,
    }
    projector.get_received()
    student.get_received()
    join(players["ben"], code)
    heard = [m["args"][0] for m in projector.get_received() if m["name"] == "class_game_changed"]
    assert heard == [{"game": game_id, "version": game_row(app, game_id).version}]
    assert not [m for m in student.get_received() if m["name"] == "class_game_changed"]
    control(teacher, game_id, "start")
    row = game_row(app, game_id)
    heard = [m["args"][0] for m in student.get_received() if m["name"] == "class_game_changed"]
    assert [{k: v for k, v in m.items() if k != "question"} for m in heard] == [
        {"game": game_id, "version": row.state_version}
    ]
    opened = heard[0]["question"]
    assert set(opened) == {"number", "title", "left", "html"}
    assert opened["number"] == 0 and opened["left"] is None
    assert opened["title"] == "Class game · Question 1 of 2"
    assert 'id="answer-form"' in opened["html"]
    assert 'name="question" value="0"' in opened["html"]
    control(teacher, game_id, "reveal")
    heard = [m["args"][0] for m in student.get_received() if m["name"] == "class_game_changed"]
    assert heard == [{"game": game_id, "version": game_row(app, game_id).state_version}]
    for stranger in (players["dee"], players["cai"], client_for(app, "mr.o")):
        listener = socketio.test_client(app, flask_test_client=stranger)
        assert listener.emit("watch_class_game", {"game": game_id}, callback=True) == {"ok": False}
    assert student.emit("watch_class_game", {"game": "1"}, callback=True) == {"ok": False}


def test_a_teacher_and_thirty_students_on_sockets_play_a_whole_game(app, school, teacher):
    """C-W9, C-W5: thirty students, each with a socket, play every kind; each hears every control
    and nothing else, and no message holds more than the game's id and a version, and a question
    just opened (never its facts)."""
    from tests.conftest import make_user
    from trainer.web.models import ClassMembership

    klass = class_id(app)
    names = [f"kid{n:02d}" for n in range(30)]
    with app.app_context():
        ids = [make_user(app, name).id for name in names]
        db.session.add_all(ClassMembership(class_id=klass, student_id=i) for i in ids)
        db.session.commit()
    clients = {name: client_for(app, name) for name in names}
    game_id = make_game(teacher, klass)
    code = game_row(app, game_id).code
    socketio = app.extensions["socketio"]
    sockets = {}
    for name, client in clients.items():
        assert join(client, code).status_code == 302
        sockets[name] = socketio.test_client(app, flask_test_client=client)
        assert sockets[name].emit("watch_class_game", {"game": game_id}, callback=True)["ok"]
        sockets[name].get_received()
    projector = socketio.test_client(app, flask_test_client=teacher)
    projector.emit("watch_class_game", {"game": game_id}, callback=True)
    projector.get_received()
    control(teacher, game_id, "start")
    projector.get_received()
    total = len(game_row(app, game_id).questions)
    for number in range(total):
        q = question(app, game_id, number)
        for i, name in enumerate(names):
            given, cards = right_answer(q) if i % 2 == 0 else wrong_answer(q)
            assert answer(clients[name], game_id, number, given, cards).status_code == 302
        heard = projector.get_received()
        assert len(heard) == 30 and all(set(m["args"][0]) == {"game", "version"} for m in heard)
        control(teacher, game_id, "reveal")
        control(teacher, game_id, "next")
        assert len(projector.get_received()) == 2
    assert game_row(app, game_id).phase == "ended"
    for name, listener in sockets.items():
        heard = listener.get_received()
        # start, then a reveal and a next per question: every control, and not one answer.
        assert len(heard) == 1 + 2 * total, name
        for n, message in enumerate(heard):
            assert message["name"] == "class_game_changed"
            # start and each next opened a question, and brought it (the last next ended the game)
            opened = n % 2 == 0 and n < 2 * total
            keys = {"game", "version", "question"} if opened else {"game", "version"}
            assert set(message["args"][0]) == keys, (name, n)
            if opened:
                q = question(app, game_id, n // 2)
                assert message["args"][0]["question"]["number"] == q.number
                assert not any(key in message["args"][0]["question"]["html"] for key in q.facts)
    reviews = live_reviews(app, game_id)
    with app.app_context():
        answers = db.session.execute(select(func.count()).select_from(ClassGameAnswer)).scalar_one()
    assert answers == 30 * total
    assert len(reviews) == len(set((sid, item) for sid, item, _v, _m in reviews))


def test_the_version_endpoint_answers_at_once_when_the_page_is_behind(
    app, school, teacher, players
):
    """C-W9: the long-poll fallback; a bad ask is refused."""
    game_id = make_game(teacher, class_id(app), length="2")
    join(players["ana"], game_row(app, game_id).code)
    assert players["ana"].get(f"/class-game/{game_id}/version").get_json() == {"version": 0}
    control(teacher, game_id, "start")
    row = game_row(app, game_id)
    reply = players["ana"].get(f"/class-game/{game_id}/version?after=0&wait=1")
    assert reply.get_json() == {"version": row.state_version}
    reply = teacher.get(f"/class-game/{game_id}/version?after=0&wait=1")
    assert reply.get_json() == {"version": row.version}
    assert teacher.get(f"/class-game/{game_id}/version?after=x&wait=1").status_code == 400


def test_a_held_ask_comes_back_with_the_control_and_the_projectors_with_an_answer(
    app, school, teacher, players
):
    """C-W9: without a socket, a student's held ask of the version is woken by a control (not by
    an answer), the projector's by an answer too."""
    from tests.web.test_live_waits import BACK, LONG, held, until_waiting

    app.config["LIVE_WAIT_SECONDS"] = LONG
    game_id = make_game(teacher, class_id(app), length="2", kinds=["capital"])
    join(players["ana"], game_row(app, game_id).code)
    board = app.extensions["live_waits"].board
    url = f"/class-game/{game_id}/version?after=0&wait=1"
    thread, out = held(lambda: players["ana"].get(url))
    until_waiting(board)
    control(teacher, game_id, "start")
    thread.join(BACK)
    assert not thread.is_alive(), "the start did not wake the student's page"
    assert out[0].get_json() == {"version": game_row(app, game_id).state_version}
    row = game_row(app, game_id)
    thread, out = held(
        lambda: teacher.get(f"/class-game/{game_id}/version?after={row.version}&wait=1")
    )
    until_waiting(board)
    answer(players["ana"], game_id, 0, question(app, game_id, 0).answer)
    thread.join(BACK)
    assert not thread.is_alive(), "the answer did not wake the projector"
    assert out[0].get_json() == {"version": game_row(app, game_id).version}
    assert board.waiting() == 0


# --- after the end --------------------------------------------------------------------------------


def test_one_post_sets_an_assignment_on_what_the_class_missed(app, school, teacher, players):
    """C-W11."""
    game_id = started_game(app, teacher, players, length="2", kinds=["capital"])
    q = question(app, game_id, 0)
    answer(players["ana"], game_id, 0, wrong_answer(q)[0])
    control(teacher, game_id, "reveal")
    control(teacher, game_id, "end")
    report_url = f"/class-game/{game_id}/report"
    report = teacher.get(report_url).get_data(as_text=True)
    assert "Set an assignment on these facts" in report
    response = teacher.post(
        f"/class-game/{game_id}/assign",
        data={"csrf_token": csrf_token(teacher, report_url), "action": "end", "version": "0"},
    )
    assert response.status_code == 302 and "/assignments/" in response.location, (
        teacher.get(response.location).get_data(as_text=True).split("flash--")[1][:400]
    )
    with app.app_context():
        made = db.session.execute(select(Assignment)).scalar_one()
        postal = q.facts[0].split(":")[0]
        assert made.activities == ["review"]
        assert made.scope["facets"] == ["capital"] and made.scope["states"] == [postal]


# --- the migration -------------------------------------------------------------------------------


@pytest.mark.parametrize("database", databases())
def test_migration_0025_adds_and_removes_the_class_game_tables(tmp_path, database):
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect

    with empty_database(tmp_path, database):
        upgrade(revision="0025_class_game")
        names = set(inspect(db.engine).get_table_names())
        assert {"class_game", "class_game_player", "class_game_answer"} <= names
        downgrade(revision="0024_live_tournament")
        names = set(inspect(db.engine).get_table_names())
        assert not names & {"class_game", "class_game_player", "class_game_answer"}


def test_a_state_is_found_on_a_map_that_names_none(app, school, teacher, players):
    """C-W13: a FIND question is answered on the question's own map of numbered outlines, as in
    study: its page names no other state and no outline, so typing the state the question names,
    or posting its postal code, is no answer; a spot of that map is, judged as the state there,
    and logged as a map click."""
    game_id = started_game(app, teacher, players, kinds=["find"], length="1")
    q = question(app, game_id, 0)
    assert q.kind is cg.Kind.FIND
    deck = app.extensions["deck"]
    asked = deck[q.answer].name
    page = players["ana"].get(f"/class-game/{game_id}?part=live").get_data(as_text=True)
    assert asked in page  # the prompt: "Find ... on the map."
    others = [s.name for s in deck if s.postal != q.answer and s.name not in asked]
    assert [name for name in others if name in page] == []
    assert "data-postal" not in page and 'list="cg-state-names"' not in page
    before = snapshot(app, game_id)
    for bad in (asked, q.answer, "0", "51", "x"):
        refused = players["ana"].post(
            f"/class-game/{game_id}/answer",
            data={
                "csrf_token": csrf_token(players["ana"], f"/class-game/{game_id}"),
                "question": "0",
                "answer": bad,
            },
        )
        assert refused.status_code == 302
        assert snapshot(app, game_id) == before, bad
    answer(players["ana"], game_id, 0, q.answer)  # its spot, as the map sends it
    with app.app_context():
        kept = db.session.execute(select(ClassGameAnswer)).scalar_one()
        assert (kept.answer, kept.right) == (q.answer, True)
        log = db.session.execute(select(ReviewLog)).scalar_one()
        assert (log.fact_key, log.form) == (f"{q.answer}:map", "map_click")


def test_the_projector_names_students_as_the_teacher_does_and_no_phone_ever(
    app, school, teacher, players
):
    """C-W8, issue 24: the lobby and the standings write "Ana Lima (ana)" where the teacher gave
    a real name; no student's page of the game shows it."""
    klass = class_id(app)
    with app.app_context():
        db.session.execute(
            update(ClassMembership)
            .where(
                ClassMembership.class_id == klass,
                ClassMembership.student_id == user_id(app, "ana"),
            )
            .values(display_name="Ana Lima")
        )
        db.session.commit()
    game_id = make_game(teacher, klass, length="1", kinds=["capital"], standings="top-five")
    code = game_row(app, game_id).code
    for name in ("ana", "ben"):
        join(players[name], code)
    lobby = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
    assert "<li>Ana Lima (ana)</li>" in lobby and "<li>ben</li>" in lobby
    control(teacher, game_id, "start")
    q = question(app, game_id, 0)
    answer(players["ana"], game_id, 0, q.answer)
    control(teacher, game_id, "reveal")
    control(teacher, game_id, "standings")
    standings = teacher.get(f"/class-game/{game_id}/projector").get_data(as_text=True)
    assert "Ana Lima (ana)" in standings
    for name in ("ana", "ben"):
        for url in (f"/class-game/{game_id}", f"/class-game/{game_id}?part=live"):
            assert "Lima" not in players[name].get(url).get_data(as_text=True)
